import "../components/eval-view.css";
import type { EvalComparison, EvalDiffResult, EvalResult } from "@uwf/protocol";
import { useState } from "preact/hooks";
import { ComparisonMetricsTable } from "../components/comparison-metrics-table.tsx";
import { ErrorBox } from "../components/error-box.tsx";
import { EvalMatrix, FailuresOnlyToggle } from "../components/eval-matrix.tsx";
import { ExperimentHead } from "../components/experiment-head.tsx";
import { formatPercent, formatTime } from "../components/format.ts";
import { useApi } from "../components/use-api.ts";
import { Loading } from "../components/view-common.tsx";
import { Link } from "../lib/router.tsx";
import { Gate } from "./experiment-page.tsx";

/**
 * `/experiments/diff/BASELINE/CURRENT`: two eval reports side by side — what `uwf eval diff BASELINE
 * CURRENT` gives: each report's gate and its cases × variants matrix next to the other's, then each
 * metric's change and the cases that regressed or improved, whole and variant by variant.
 */
export function EvalDiffPage(props: { baseline: string; current: string }) {
  const [failuresOnly, setFailuresOnly] = useState(false);
  const diff = useApi<EvalDiffResult>(
    `/api/evals/${encodeURIComponent(props.baseline)}/diff/${encodeURIComponent(props.current)}`,
  );
  const baseline = useApi<EvalResult>(`/api/evals/${encodeURIComponent(props.baseline)}`);
  const current = useApi<EvalResult>(`/api/evals/${encodeURIComponent(props.current)}`);
  const error = diff.error ?? baseline.error ?? current.error;
  if (error !== null && error !== undefined) return <ErrorBox error={error} />;
  if (diff.data === null || baseline.data === null || current.data === null) return <Loading />;
  return (
    <section class="experiment-page eval-diff-page" data-testid="eval-diff-page">
      <ExperimentHead
        title={
          <>
            {current.data.name} <span class="muted">against</span> {baseline.data.name}
          </>
        }
      >
        <code>
          uwf eval diff {props.baseline} {props.current}
        </code>
      </ExperimentHead>
      <h2 class="eval-section">
        Side by side <FailuresOnlyToggle checked={failuresOnly} onChange={setFailuresOnly} />
      </h2>
      <div class="eval-side-by-side">
        {[
          { label: "Baseline", result: baseline.data },
          { label: "Current", result: current.data },
        ].map(({ label, result }) => (
          <section key={label} data-testid={`side-${label.toLowerCase()}`}>
            <h3>
              {label}: <Link href={`/experiments/${result.report}`}>{result.name}</Link>{" "}
              <span class="muted">
                {formatTime(result.createdAt)} · pass rate {formatPercent(result.summary.overall.passRate)}
              </span>
            </h3>
            <Gate result={result} />
            <EvalMatrix result={result} failuresOnly={failuresOnly} />
          </section>
        ))}
      </div>
      <h2 class="eval-section">What changed</h2>
      {diff.data.comparisons.map((comparison) => (
        <ComparisonTable key={`${comparison.baseline.variant}:${comparison.current.variant}`} comparison={comparison} />
      ))}
    </section>
  );
}

function ComparisonTable(props: { comparison: EvalComparison }) {
  const { comparison } = props;
  const changed = [
    ...comparison.regressed.map((change) => ({ ...change, direction: "regressed" })),
    ...comparison.improved.map((change) => ({ ...change, direction: "improved" })),
  ];
  return (
    <div class="eval-diff" data-testid="eval-diff">
      <ComparisonMetricsTable
        comparison={comparison}
        caption={
          <>
            {comparison.current.variant ?? "the whole report"}
            {comparison.current.variant !== comparison.baseline.variant
              ? ` against ${comparison.baseline.variant ?? "the whole report"}`
              : ""}
          </>
        }
      />
      {changed.length > 0 ? (
        <ul class="problems">
          {changed.map((change) => (
            <li
              key={`${change.direction}:${change.case}:${change.variant}`}
              data-testid={`case-${change.direction}`}
              data-case={change.case ?? ""}
            >
              <strong>{change.case ?? "(no case)"}</strong> {change.variant ?? ""} {change.direction}:{" "}
              {formatPercent(change.baseline)} → {formatPercent(change.current)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
