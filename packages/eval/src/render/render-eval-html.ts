import { createHash } from "node:crypto";
import { type EvalResult, InternalError } from "@uwf/protocol";
import chartJsCode from "../../node_modules/chart.js/dist/chart.umd.min.js" with { type: "text" };
import { formatInterval, formatRate } from "../format/format-number.ts";
import { buildEvalChartData } from "./eval-chart-data.ts";
import { comparisonsSection, gateSection, samplesSection, unstartedSection } from "./eval-html-detail-sections.ts";
import { assertionsSection, casesSection, outcomesSection, variantsSection } from "./eval-html-summary-sections.ts";
import pageScript from "./eval-page.client.js" with { type: "text" };
import { type HtmlFragment, html, jsonForScript, rawHtml } from "./html-template.ts";
import { gateBadge, renderReportPage } from "./report-page.ts";

/** Chart.js v4 (MIT), inlined whole; its source-map comment is dropped, as the page must load nothing. */
const CHART_JS = chartJsCode.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");

function scriptHash(code: string): string {
  return `'sha256-${createHash("sha256").update(code).digest("base64")}'`;
}

let contentSecurityPolicy: string | undefined;

/**
 * Only the page's two scripts may run (by hash) and nothing may be fetched: even if a value from the report
 * got through as markup, it could neither execute nor call out. Computed on the first page, not at import.
 */
function pagePolicy(): string {
  if (contentSecurityPolicy !== undefined) return contentSecurityPolicy;
  for (const [name, code] of [
    ["chart.js", CHART_JS],
    ["the page script", pageScript],
  ] as const) {
    // Inlined as they are, so they must not be able to end their <script> element early.
    if (/<\/script|<!--/i.test(code))
      throw new InternalError(`${name} cannot be inlined: it contains </script or <!--`);
  }
  contentSecurityPolicy = [
    "default-src 'none'",
    `script-src ${scriptHash(CHART_JS)} ${scriptHash(pageScript)}`,
    "style-src 'unsafe-inline'",
    "img-src data:",
  ].join("; ");
  return contentSecurityPolicy;
}

/** Where the report's samples came from: a suite file, or a selection of threads. */
function sourceOf(result: EvalResult): HtmlFragment {
  return result.source.kind === "suite"
    ? html`suite <code>${result.source.file}</code>`
    : html`selection of ${result.source.threads.length} thread(s)${result.source.forksOf === null ? "" : html`, forks of <code class="thread">${result.source.forksOf.thread}</code>${result.source.forksOf.recursive ? " (recursive)" : ""}`}${result.source.workflow === null ? "" : html`, workflow <code>${result.source.workflow}</code>`}${result.source.status === null ? "" : html`, status ${result.source.status}`}`;
}

/**
 * The report as one self-contained HTML page (`uwf eval --html FILE`): tables rendered here, readable
 * with JavaScript off, and charts drawn in the browser by Chart.js, inlined with the page's data so the
 * file opens offline and fetches nothing. Every string from the report is escaped.
 */
export function renderEvalHtml(result: EvalResult): string {
  const overall = result.summary.overall;
  return renderReportPage({
    generator: "uwf eval",
    policy: pagePolicy(),
    name: result.name,
    meta: [
      ["report", html`<code>${result.report}</code>`],
      ["node", html`<code>${result.address}</code>`],
      ["created", html`${result.createdAt}`],
      ["source", sourceOf(result)],
    ],
    rescoredFrom: result.rescoredFrom,
    summary: html`${gateBadge(result.gateHeld)} ${overall.samples} samples: <span class="passed">${overall.passed} passed</span>, <span class="failed">${overall.failed} failed</span>, <span class="errored">${overall.errored} errored</span>; pass rate <strong>${formatRate(overall.passRate)}</strong> (95% interval ${formatInterval(overall.interval)}).`,
    body: html`<section id="charts" hidden aria-label="charts"></section>
<main>
${variantsSection(result)}
${casesSection(result)}
${assertionsSection(result)}
${gateSection(result)}
${comparisonsSection(result)}
${outcomesSection(result)}
${samplesSection(result)}
${unstartedSection(result)}
</main>
<script type="application/json" id="eval-chart-data">${rawHtml(jsonForScript(buildEvalChartData(result)))}</script>
<script>${rawHtml(CHART_JS)}</script>
<script>${rawHtml(pageScript)}</script>`,
  });
}
