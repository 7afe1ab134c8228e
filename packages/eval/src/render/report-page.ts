import { EVAL_PAGE_STYLE } from "./eval-page-style.ts";
import { type HtmlFragment, html, rawHtml } from "./html-template.ts";

/** What a report page holds inside the shell both report pages share. */
export interface ReportPageOptions {
  /** The command that wrote the page: the generator, and the end of the title. */
  generator: "uwf eval" | "uwf explore";
  /** The Content-Security-Policy: what the page may run and fetch. */
  policy: string;
  /** The report's name: the title and the heading. */
  name: string;
  /** The header's terms and their descriptions, before "rescored from". */
  meta: ReadonlyArray<readonly [term: string, description: HtmlFragment]>;
  rescoredFrom: string | null;
  /** The header's line under the list: the gate and the figures. */
  summary: HtmlFragment;
  /** More style after the report pages' own. */
  style?: string;
  /** What follows the header in the body. */
  body: HtmlFragment;
}

/** The gate's badge: held, did not hold, or no gate. */
export function gateBadge(gateHeld: boolean | null): HtmlFragment {
  if (gateHeld === null) return html`<span class="badge">no gate</span>`;
  return gateHeld
    ? html`<span class="badge held">gate held</span>`
    : html`<span class="badge not-held">gate did not hold</span>`;
}

/**
 * One self-contained HTML page of a report (`uwf eval --html`, `uwf explore --html`): the head with its
 * policy and inline style, the header naming the report, then the body. Every string is escaped.
 */
export function renderReportPage(options: ReportPageOptions): string {
  const meta = options.meta.map(([term, description]) => html`<dt>${term}</dt><dd>${description}</dd>\n`);
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${options.policy}">
<meta name="generator" content="${options.generator}">
<title>${options.name} · ${options.generator}</title>
<style>${rawHtml(EVAL_PAGE_STYLE)}${rawHtml(options.style ?? "")}</style>
</head>
<body>
<header>
<h1>${options.name}</h1>
<dl class="meta">
${meta}${options.rescoredFrom === null ? "" : html`<dt>rescored from</dt><dd><code>${options.rescoredFrom}</code></dd>`}
</dl>
<p>${options.summary}</p>
</header>
${options.body}
</body>
</html>
`;
  return page.text;
}
