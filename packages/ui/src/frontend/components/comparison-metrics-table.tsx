import type { EvalComparison } from "@uwf/protocol";
import type { ComponentChildren } from "preact";

/** One comparison of an eval report with its baseline: each metric's two values and their change, under `caption`. */
export function ComparisonMetricsTable(props: { comparison: EvalComparison; caption: ComponentChildren }) {
  const { comparison } = props;
  return (
    <table class="data eval-comparison">
      <caption>
        {props.caption}
        {comparison.regressed.length > 0 && ` · ${comparison.regressed.length} case(s) regressed`}
        {comparison.improved.length > 0 && ` · ${comparison.improved.length} improved`}
      </caption>
      <thead>
        <tr>
          <th>Metric</th>
          <th class="num">Baseline</th>
          <th class="num">Current</th>
          <th class="num">Δ</th>
        </tr>
      </thead>
      <tbody>
        {comparison.metrics.map((metric) => (
          <tr key={metric.metric}>
            <td>{metric.metric}</td>
            <td class="num">{metric.baseline ?? "—"}</td>
            <td class="num">{metric.current ?? "—"}</td>
            <td class="num">{metric.delta === null ? "—" : (metric.delta > 0 ? "+" : "") + metric.delta}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
