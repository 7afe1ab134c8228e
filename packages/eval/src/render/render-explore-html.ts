import type { ExploreResult } from "@uwf/protocol";
import { formatDelta, formatInterval, formatRate, MISSING } from "../format/format-number.ts";
import { EXPLORE_CHART_STYLE, exploreChartSvg } from "./explore-chart-svg.ts";
import { html, table } from "./html-template.ts";
import { gateBadge, renderReportPage } from "./report-page.ts";

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
      html`<tr class="${step.decisive ? "decisive" : ""}" data-step="${step.step}"><td>${step.step}${step.decisive ? " ◆" : ""}</td><td>${step.role}</td><td class="num">${step.samples}</td><td class="num">${step.passed}</td><td class="num">${formatRate(step.passRate)}</td><td>${step.interval === null ? MISSING : formatInterval({ low: step.interval[0], high: step.interval[1] })}</td><td class="num">${formatDelta(step.effect, formatRate)}</td><td>${step.forks.map((fork) => html`<code class="thread ${fork.verdict}" title="${fork.verdict}">${fork.thread}</code> `)}</td></tr>`,
  );
  const decisive = result.decisive.length === 0 ? "none" : result.decisive.map((step) => `step ${step}`).join(", ");
  return renderReportPage({
    generator: "uwf explore",
    policy: PAGE_POLICY,
    name: result.name,
    meta: [
      ["report", html`<code>${result.report}</code>`],
      ["thread", html`<code class="thread">${result.thread}</code>`],
      ["created", html`${result.createdAt}`],
    ],
    rescoredFrom: result.rescoredFrom,
    summary: html`${gateBadge(result.gateHeld)} original run: <strong class="${result.original.verdict}">${result.original.verdict}</strong>; ${result.samplesPerStep} re-runs per step; decisive: <strong>${decisive}</strong>.`,
    style: EXPLORE_CHART_STYLE,
    body: html`<main>
<h2>Pass rate of the re-runs from each step</h2>
${exploreChartSvg(result)}
<h2>Steps</h2>
${table(head, rows)}
<h2>Assertions</h2>
<ul>${result.assertions.map((assertion) => html`<li><code>${assertion.name}</code> (${assertion.kind})</li>`)}</ul>
</main>`,
  });
}
