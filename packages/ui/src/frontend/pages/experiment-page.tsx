import type { EvalListResult, EvalResult, EvalVariantSummary } from "@uwf/protocol";
import { useState } from "preact/hooks";
import "../components/eval-view.css";
import { ComparisonMetricsTable } from "../components/comparison-metrics-table.tsx";
import { ErrorBox } from "../components/error-box.tsx";
import { EvalCard } from "../components/eval-card.tsx";
import { EvalCharts } from "../components/eval-charts.tsx";
import { EvalMatrix, FailuresOnlyToggle } from "../components/eval-matrix.tsx";
import { ExperimentHead } from "../components/experiment-head.tsx";
import {
  formatCompactTokens,
  formatCost,
  formatDuration,
  formatPercent,
  formatTime,
  shortThread,
} from "../components/format.ts";
import { useApi } from "../components/use-api.ts";
import { Loading, OutcomeText, StateBadge } from "../components/view-common.tsx";
import { Link, navigate } from "../lib/router.tsx";
import { RateBar } from "./experiments-page.tsx";

function interval(summary: { interval: { low: number; high: number } | null }): string {
  return summary.interval === null
    ? "—"
    : `${formatPercent(summary.interval.low)}–${formatPercent(summary.interval.high)}`;
}

export function Gate(props: { result: EvalResult }) {
  const { result } = props;
  if (result.gate === null && result.gateChecks.length === 0) return <p class="empty">No gate.</p>;
  const held = result.gateHeld !== false && result.gateChecks.every((check) => check.held);
  return (
    <div class={`eval-gate ${held ? "held" : "broke"}`} data-gate={held ? "held" : "broke"}>
      <span class="verdict">{held ? "Gate held" : "Gate did not hold"}</span>
      <ul>
        {result.gateChecks.map((check) => (
          <li key={check.check} class={check.held ? "held" : "broke"}>
            <code>{check.check}</code> {check.held ? "✓" : "✗"} {check.detail}
          </li>
        ))}
      </ul>
    </div>
  );
}

function VariantRow(props: { variant: EvalVariantSummary }) {
  const { variant } = props;
  return (
    <tr data-variant={variant.variant ?? ""}>
      <td>
        <strong>{variant.variant ?? "(all)"}</strong>
      </td>
      <td class="num">{variant.samples}</td>
      <td class="num">
        {variant.passed} / {variant.failed} / {variant.errored}
      </td>
      <td>
        <RateBar rate={variant.passRate} />
        {formatPercent(variant.passRate)}
      </td>
      <td>{interval(variant)}</td>
      <td class="num">{variant.meanScore === undefined ? "—" : formatPercent(variant.meanScore)}</td>
      <td class="num">{formatCost(variant.costUsd.p50)}</td>
      <td class="num">{formatDuration(variant.durationMs.p50)}</td>
      <td>
        {variant.assertions.map((assertion) => (
          <div key={assertion.name}>
            <code>{assertion.name}</code> {formatPercent(assertion.mean)}
          </div>
        ))}
      </td>
    </tr>
  );
}

/** `/experiments/:id`: an eval report — its gate, per-variant summary, charts and samples (each linking to its thread). */
export function ExperimentPage(props: { id: string }) {
  const [failuresOnly, setFailuresOnly] = useState(false);
  const shown = useApi<EvalResult>(`/api/evals/${encodeURIComponent(props.id)}`);
  if (shown.error !== null && shown.error !== undefined) return <ErrorBox error={shown.error} />;
  if (shown.data === null) return <Loading />;
  const result = shown.data;
  const overall = result.summary.overall;
  return (
    <section class="experiment-page">
      <ExperimentHead title={result.name} report={result.report} rescoredFrom={result.rescoredFrom}>
        {formatTime(result.createdAt)} ·{" "}
        {result.source.kind === "suite" ? `suite ${result.source.file}` : selectionLabel(result.source)}
      </ExperimentHead>
      <Gate result={result} />
      <div class="eval-cards">
        <EvalCard label="samples" value={String(overall.samples)} />
        <EvalCard
          label="passed / failed / errored"
          value={`${overall.passed} / ${overall.failed} / ${overall.errored}`}
        />
        <EvalCard label={`pass rate (95%: ${interval(overall)})`} value={formatPercent(overall.passRate)} />
        {overall.meanScore !== undefined && <EvalCard label="mean score" value={formatPercent(overall.meanScore)} />}
        <EvalCard label="total cost" value={formatCost(overall.costUsd.total)} />
        <EvalCard label="tokens" value={formatCompactTokens(overall.tokens.total)} />
        <EvalCard label="duration p50" value={formatDuration(overall.durationMs.p50)} />
      </div>
      <EvalCharts result={result} />
      <h2 class="eval-section">Variants</h2>
      <table class="data eval-variants">
        <thead>
          <tr>
            <th>Variant</th>
            <th class="num">Samples</th>
            <th class="num">Pass / fail / err</th>
            <th>Pass rate</th>
            <th>95% interval</th>
            <th class="num">Mean score</th>
            <th class="num">Cost p50</th>
            <th class="num">Duration p50</th>
            <th>Assertions (mean)</th>
          </tr>
        </thead>
        <tbody>
          {result.summary.variants.map((variant) => (
            <VariantRow key={variant.variant ?? ""} variant={variant} />
          ))}
        </tbody>
      </table>
      {result.comparisons.length > 0 && (
        <>
          <h2 class="eval-section">Against the baseline</h2>
          {result.comparisons.map((comparison) => (
            <ComparisonMetricsTable
              key={`${comparison.baseline.report}:${comparison.baseline.variant}:${comparison.current.variant}`}
              comparison={comparison}
              caption={
                <>
                  {comparison.current.variant ?? comparison.current.report ?? "this report"} against{" "}
                  {comparison.baseline.variant ?? comparison.baseline.report ?? "the baseline"}
                </>
              }
            />
          ))}
        </>
      )}
      <h2 class="eval-section">
        Cases × variants <FailuresOnlyToggle checked={failuresOnly} onChange={setFailuresOnly} />
      </h2>
      <EvalMatrix result={result} failuresOnly={failuresOnly} />
      <ComparePicker report={result.report} name={result.name} />
      <h2 class="eval-section">Samples</h2>
      <table class="data eval-samples">
        <thead>
          <tr>
            <th>Thread</th>
            <th>Case</th>
            <th>Variant</th>
            <th class="num">#</th>
            <th>Verdict</th>
            <th class="num">Score</th>
            <th>Outcome</th>
            <th class="num">Steps</th>
            <th class="num">Cost</th>
            <th class="num">Duration</th>
            <th>Path</th>
          </tr>
        </thead>
        <tbody>
          {result.samples.map((sample) => (
            <tr key={sample.thread} data-thread={sample.thread}>
              <td>
                <Link href={`/threads/${sample.thread}`} title={sample.thread}>
                  <code>{shortThread(sample.thread)}</code>
                </Link>
              </td>
              <td>{sample.case ?? "—"}</td>
              <td>{sample.variant ?? "—"}</td>
              <td class="num">{sample.repeat ?? "—"}</td>
              <td
                class={`verdict-${sample.verdict}`}
                title={[
                  ...sample.scores.map(
                    (score) =>
                      `${score.assertion}: ${score.verdict}${score.reason === null ? "" : ` (${score.reason})`}${score.error === null ? "" : ` — ${score.error}`}`,
                  ),
                  ...(sample.error === null ? [] : [sample.error]),
                ].join("\n")}
              >
                <StateBadge state={sample.verdict} />
                {sample.scores
                  .filter((score) => score.judge !== null)
                  .map((score) => (
                    <Link
                      key={score.assertion}
                      href={`/threads/${score.judge?.thread ?? ""}`}
                      class="eval-judge"
                      title={`the thread that judged ${score.assertion}`}
                    >
                      judge
                    </Link>
                  ))}
              </td>
              <td class="num">{sample.score === null ? "—" : sample.score.toFixed(2)}</td>
              <td>
                {sample.outcome === null ? (
                  <StateBadge state={sample.status} />
                ) : (
                  <OutcomeText outcome={sample.outcome} />
                )}
              </td>
              <td class="num">{sample.steps}</td>
              <td class="num">{formatCost(sample.costUsd)}</td>
              <td class="num">{formatDuration(sample.durationMs)}</td>
              <td class="eval-path">{sample.path.join(" → ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {result.unstarted.length > 0 && (
        <>
          <h2 class="eval-section">Not started</h2>
          <ul class="problems">
            {result.unstarted.map((run) => (
              <li key={`${run.case}:${run.variant}:${run.repeat}`}>
                {run.case ?? "—"} · {run.variant ?? "—"} · {run.repeat ?? "—"}: {run.error}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** How a selection's threads were chosen, as `uwf eval`'s flags said it. */
function selectionLabel(source: Extract<EvalResult["source"], { kind: "selection" }>): string {
  const parts: string[] = [];
  if (source.forksOf !== null)
    parts.push(`forks of ${source.forksOf.thread}${source.forksOf.recursive ? ", recursive" : ""}`);
  if (source.workflow !== null) parts.push(`workflow ${source.workflow}`);
  if (source.status !== null) parts.push(`status ${source.status}`);
  if (source.threads.length > 0) parts.push(`${source.threads.length} threads named`);
  return parts.length === 0 ? "every thread" : parts.join(" · ");
}

/** "Compare with…": another stored report (of the same suite first), opened side by side with this one as `uwf eval diff OTHER THIS`. */
function ComparePicker(props: { report: string; name: string }) {
  const listed = useApi<EvalListResult>("/api/evals?limit=200");
  const others = (listed.data?.reports ?? []).filter((report) => report.report !== props.report);
  if (others.length === 0) return null;
  const sorted = [
    ...others.filter((report) => report.name === props.name),
    ...others.filter((report) => report.name !== props.name),
  ];
  return (
    <p class="eval-compare">
      <label>
        Side by side with{" "}
        <select
          data-testid="compare-with"
          onChange={(event) => {
            const baseline = (event.currentTarget as HTMLSelectElement).value;
            if (baseline !== "") navigate(`/experiments/diff/${baseline}/${props.report}`);
          }}
        >
          <option value="">a baseline report…</option>
          {sorted.map((report) => (
            <option key={report.report} value={report.report}>
              {report.name} · {formatTime(report.createdAt)} · {report.report}
            </option>
          ))}
        </select>
      </label>
    </p>
  );
}
