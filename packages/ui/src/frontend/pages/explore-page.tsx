import type { ExploreResult, ExploreStepResult } from "@uwf/protocol";
import "../components/eval-view.css";
import "../components/explore-view.css";
import { ErrorBox } from "../components/error-box.tsx";
import { EvalCard } from "../components/eval-card.tsx";
import { ExperimentHead } from "../components/experiment-head.tsx";
import { formatPercent, formatTime, shortThread } from "../components/format.ts";
import { useApi } from "../components/use-api.ts";
import { Loading } from "../components/view-common.tsx";
import { Link } from "../lib/router.tsx";
import { RateBar } from "./experiments-page.tsx";

const WIDTH = 720;
const HEIGHT = 260;
const MARGIN = { left: 44, right: 16, top: 16, bottom: 36 };

function effectText(effect: number | null): string {
  if (effect === null) return "—";
  return `${effect > 0 ? "+" : effect < 0 ? "−" : ""}${Math.abs(effect).toFixed(2)}`;
}

function intervalText(step: ExploreStepResult): string {
  return step.interval === null ? "—" : `${formatPercent(step.interval[0])}–${formatPercent(step.interval[1])}`;
}

/**
 * Pass rate of the re-runs from each step (points joined by a line) with its 95% Wilson interval (a
 * whisker); decisive steps drawn larger. SVG, so it needs no script and no inline style.
 */
function ExploreChart(props: { result: ExploreResult }) {
  const { steps } = props.result;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (index: number) =>
    MARGIN.left + (steps.length <= 1 ? plotWidth / 2 : (index / (steps.length - 1)) * plotWidth);
  const y = (rate: number) => MARGIN.top + (1 - rate) * plotHeight;
  const line = steps
    .flatMap((step, index) => (step.passRate === null ? [] : [`${x(index).toFixed(1)},${y(step.passRate).toFixed(1)}`]))
    .join(" ");
  return (
    <figure class="explore-chart-figure">
      <figcaption>Pass rate of the re-runs from each step (95% intervals)</figcaption>
      <svg
        class="explore-chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label="pass rate of the re-runs from each step, with 95% intervals"
      >
        {[0, 0.25, 0.5, 0.75, 1].map((rate) => (
          <g key={rate}>
            <line class="grid" x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(rate)} y2={y(rate)} />
            <text class="axis" x={MARGIN.left - 6} y={y(rate) + 4} text-anchor="end">
              {rate.toFixed(2)}
            </text>
          </g>
        ))}
        <polyline class="rate" points={line} />
        {steps.map((step, index) => (
          <g key={step.step}>
            <text class="axis" x={x(index)} y={HEIGHT - MARGIN.bottom + 16} text-anchor="middle">
              {step.step}
            </text>
            {step.interval !== null && (
              <line
                class="interval"
                x1={x(index)}
                x2={x(index)}
                y1={y(step.interval[0])}
                y2={y(step.interval[1])}
                data-step={step.step}
              />
            )}
            {step.passRate !== null && (
              <circle
                class={step.decisive ? "point decisive" : "point"}
                cx={x(index)}
                cy={y(step.passRate)}
                r={step.decisive ? 7 : 4.5}
                data-step={step.step}
                data-rate={step.passRate}
              >
                <title>
                  {`step ${step.step} (${step.role}): ${step.passed} of ${step.passed + step.failed} passed, effect ${effectText(step.effect)}`}
                </title>
              </circle>
            )}
          </g>
        ))}
        <text class="axis" x={MARGIN.left + plotWidth / 2} y={HEIGHT - 4} text-anchor="middle">
          step re-run from
        </text>
      </svg>
    </figure>
  );
}

/** `/experiments/explore/:id`: an exploration — the chart of pass rate against step, and the steps' table. */
export function ExplorePage(props: { id: string }) {
  const shown = useApi<ExploreResult>(`/api/explorations/${encodeURIComponent(props.id)}`);
  if (shown.error !== null && shown.error !== undefined) return <ErrorBox error={shown.error} />;
  if (shown.data === null) return <Loading />;
  const result = shown.data;
  return (
    <section class="experiment-page explore-page">
      <ExperimentHead title={result.name} report={result.report} rescoredFrom={result.rescoredFrom}>
        {formatTime(result.createdAt)} · exploration of{" "}
        <Link href={`/threads/${result.thread}`}>
          <code>{shortThread(result.thread)}</code>
        </Link>
      </ExperimentHead>
      <div class="eval-cards">
        <EvalCard
          label="original run"
          value={result.original.verdict}
          valueClass={`verdict-${result.original.verdict}`}
        />
        <EvalCard label="re-runs per step" value={result.samplesPerStep} />
        <EvalCard
          class="explore-decisive"
          label="decisive"
          value={result.decisive.length === 0 ? "none" : result.decisive.map((step) => `step ${step}`).join(", ")}
        />
        {result.gateHeld !== null && (
          <EvalCard
            label={`gate (min pass rate ${formatPercent(result.gate?.minPassRate ?? null)})`}
            value={result.gateHeld ? "held" : "did not hold"}
            valueClass={result.gateHeld ? "verdict-passed" : "verdict-failed"}
          />
        )}
      </div>
      <ExploreChart result={result} />
      <h2 class="eval-section">Steps</h2>
      <table class="data explore-steps">
        <thead>
          <tr>
            <th class="num">Step</th>
            <th>Role</th>
            <th class="num">Samples</th>
            <th class="num">Passed</th>
            <th>Pass rate</th>
            <th>95% interval</th>
            <th class="num">Effect</th>
            <th>Re-runs</th>
          </tr>
        </thead>
        <tbody>
          {result.steps.map((step) => (
            <tr key={step.step} data-step={step.step} class={step.decisive ? "decisive" : ""}>
              <td class="num">
                {step.step}
                {step.decisive ? " ◆" : ""}
              </td>
              <td>{step.role}</td>
              <td class="num">{step.samples}</td>
              <td class="num">{step.passed}</td>
              <td>
                <RateBar rate={step.passRate} />
                {formatPercent(step.passRate)}
              </td>
              <td>{intervalText(step)}</td>
              <td class="num">{effectText(step.effect)}</td>
              <td class="explore-forks">
                {step.forks.map((fork) => (
                  <Link key={fork.thread} href={`/threads/${fork.thread}`} title={`${fork.thread}: ${fork.verdict}`}>
                    <code class={`verdict-${fork.verdict}`}>{shortThread(fork.thread)}</code>
                  </Link>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
