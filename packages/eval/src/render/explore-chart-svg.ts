import type { ExploreResult } from "@uwf/protocol";
import { formatDelta, formatInterval, formatRate } from "../format/format-number.ts";
import { type HtmlFragment, html } from "./html-template.ts";

const WIDTH = 720;
const HEIGHT = 260;
const MARGIN = { left: 44, right: 16, top: 16, bottom: 36 };

/**
 * The exploration as an SVG chart: the pass rate of the re-runs from each step (a point, joined by a
 * line) with its 95% Wilson interval (a whisker), decisive steps drawn larger; pass rate 0 to 1 up,
 * steps across. Drawn here, so the page needs no script. Each point carries its numbers as data
 * attributes and a title.
 */
export function exploreChartSvg(result: ExploreResult): HtmlFragment {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const count = result.steps.length;
  const x = (index: number) => MARGIN.left + (count <= 1 ? plotWidth / 2 : (index / (count - 1)) * plotWidth);
  const y = (rate: number) => MARGIN.top + (1 - rate) * plotHeight;
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (rate) =>
      html`<line class="grid" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(rate)}" y2="${y(rate)}"/><text class="axis" x="${MARGIN.left - 6}" y="${y(rate) + 4}" text-anchor="end">${formatRate(rate)}</text>`,
  );
  const known = result.steps.flatMap((step, index) => (step.passRate === null ? [] : [{ step, index }]));
  const line = known.map(({ step, index }) => `${x(index).toFixed(1)},${y(step.passRate as number).toFixed(1)}`);
  const marks = result.steps.map((step, index) => {
    const label = html`<text class="axis" x="${x(index)}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle">${step.step}</text>`;
    if (step.passRate === null) return label;
    const whisker =
      step.interval === null
        ? ""
        : html`<line class="interval" x1="${x(index)}" x2="${x(index)}" y1="${y(step.interval[0])}" y2="${y(step.interval[1])}"/>`;
    const title = `step ${step.step} (${step.role}): ${step.passed} of ${step.passed + step.failed} passed, rate ${formatRate(step.passRate)}${step.interval === null ? "" : ` ${formatInterval({ low: step.interval[0], high: step.interval[1] })}`}${step.effect === null ? "" : `, effect ${formatDelta(step.effect, formatRate)}`}`;
    return html`${label}${whisker}<circle class="${step.decisive ? "point decisive" : "point"}" cx="${x(index)}" cy="${y(step.passRate)}" r="${step.decisive ? 7 : 4.5}" data-step="${step.step}" data-rate="${step.passRate}" data-low="${step.interval?.[0] ?? ""}" data-high="${step.interval?.[1] ?? ""}"><title>${title}</title></circle>`;
  });
  return html`<svg class="explore-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="pass rate of the re-runs from each step, with 95% intervals">
${grid}
<polyline class="rate" points="${line.join(" ")}"/>
${marks}
<text class="axis" x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 4}" text-anchor="middle">step re-run from</text>
</svg>`;
}

/** The chart's look, for the HTML page (the UI has its own stylesheet for the same classes). */
export const EXPLORE_CHART_STYLE = `
.explore-chart { width: 100%; max-width: 720px; height: auto; display: block; margin: 8px 0 16px; }
.explore-chart .grid { stroke: var(--grid); stroke-width: 1; }
.explore-chart .axis { fill: var(--muted); font-size: 11px; }
.explore-chart .rate { fill: none; stroke: var(--accent); stroke-width: 2; }
.explore-chart .interval { stroke: var(--muted); stroke-width: 2; }
.explore-chart .point { fill: var(--accent); }
.explore-chart .point.decisive { fill: var(--failed); }
tr.decisive td { font-weight: 600; }
`;
