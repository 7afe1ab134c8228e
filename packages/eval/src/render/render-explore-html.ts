import type { ExploreResult } from "@uwf/protocol";
import { formatDelta, formatInterval, formatRate, MISSING } from "../format/format-number.ts";
import { EVAL_PAGE_STYLE } from "./eval-page-style.ts";
import { EXPLORE_CHART_STYLE, exploreChartSvg } from "./explore-chart-svg.ts";
import { html, rawHtml, table } from "./html-template.ts";

/** Nothing runs and nothing is fetched: the chart is SVG drawn here, the style inline. */
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * An exploration as one self-contained HTML page (`uwf explore --html FILE`): the chart of pass rate
 * against step with its intervals, the table of steps, the original verdict and the decisive steps.
 * Every string from the report is escaped; the page runs no script.
 */
export function renderExploreHtml(result: ExploreResult): string {
  const head = html`<tr><th>Step</th><th>Role</th><th class="num">Samples</th><th class="num">Passed</th><th class="num">Pass rate</th><th>95% interval</th><th class="num">Effect</th><th>Re-runs</th></tr>`;
  const rows = result.steps.map(
    (step) =>
      html`<tr class="${step.decisive ? "decisive" : ""}" data-step="${step.step}"><td>${step.step}${step.decisive ? " ◆" : ""}</td><td>${step.role}</td><td class="num">${step.samples}</td><td class="num">${step.passed}</td><td class="num">${formatRate(step.passRate)}</td><td>${step.interval === null ? MISSING : formatInterval({ low: step.interval[0], high: step.interval[1] })}</td><td class="num">${formatDelta(step.effect, (value) => value.toFixed(2))}</td><td>${step.forks.map((fork) => html`<code class="thread ${fork.verdict}" title="${fork.verdict}">${fork.thread}</code> `)}</td></tr>`,
  );
  const gate =
    result.gateHeld === null
      ? html`<span class="badge">no gate</span>`
      : result.gateHeld
        ? html`<span class="badge held">gate held</span>`
        : html`<span class="badge not-held">gate did not hold</span>`;
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}">
<meta name="generator" content="uwf explore">
<title>${result.name} · uwf explore</title>
<style>${rawHtml(EVAL_PAGE_STYLE)}${rawHtml(EXPLORE_CHART_STYLE)}</style>
</head>
<body>
<header>
<h1>${result.name}</h1>
<dl class="meta">
<dt>report</dt><dd><code>${result.report}</code></dd>
<dt>thread</dt><dd><code class="thread">${result.thread}</code></dd>
<dt>created</dt><dd>${result.createdAt}</dd>
${result.rescoredFrom === null ? "" : html`<dt>rescored from</dt><dd><code>${result.rescoredFrom}</code></dd>`}
</dl>
<p>${gate} original run: <strong class="${result.original.verdict}">${result.original.verdict}</strong>; ${result.samplesPerStep} re-runs per step; decisive: <strong>${result.decisive.length === 0 ? "none" : result.decisive.map((step) => `step ${step}`).join(", ")}</strong>.</p>
</header>
<main>
<h2>Pass rate of the re-runs from each step</h2>
${exploreChartSvg(result)}
<h2>Steps</h2>
${table(head, rows)}
<h2>Assertions</h2>
<ul>${result.assertions.map((assertion) => html`<li><code>${assertion.name}</code> (${assertion.kind})</li>`)}</ul>
</main>
</body>
</html>
`;
  return page.text;
}
