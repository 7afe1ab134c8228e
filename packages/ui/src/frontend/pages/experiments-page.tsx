import type { EvalListResult } from "@uwf/protocol";
import "../components/eval-view.css";
import { ErrorBox } from "../components/error-box.tsx";
import { formatPercent, formatTime } from "../components/format.ts";
import { useApi } from "../components/use-api.ts";
import { Loading } from "../components/view-common.tsx";
import { Link } from "../lib/router.tsx";

/** A pass rate as a small bar (SVG: no inline style under a strict CSP). */
export function RateBar(props: { rate: number | null }) {
  if (props.rate === null) return null;
  return (
    <svg class="eval-rate" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
      <rect x="0" y="0" width={Math.max(0, Math.min(1, props.rate)) * 100} height="10" />
    </svg>
  );
}

/** `/experiments`: the stored eval reports, newest first. */
export function ExperimentsPage() {
  const listed = useApi<EvalListResult>("/api/evals?limit=200");
  if (listed.error !== null && listed.error !== undefined) return <ErrorBox error={listed.error} />;
  if (listed.data === null) return <Loading />;
  const { reports, total } = listed.data;
  return (
    <section class="experiments-page">
      <div class="page-head">
        <h1>Experiments</h1>
        <span class="sub">
          {total} eval report{total === 1 ? "" : "s"}
          {reports.length < total ? ` (newest ${reports.length} shown)` : ""}
        </span>
      </div>
      {reports.length === 0 ? (
        <p class="empty">No eval reports yet: `uwf eval --suite FILE` makes one.</p>
      ) : (
        <table class="data eval-reports">
          <thead>
            <tr>
              <th>Name</th>
              <th>Report</th>
              <th>Made</th>
              <th class="num">Samples</th>
              <th>Pass rate</th>
            </tr>
          </thead>
          <tbody>
            {reports.map((report) => (
              <tr key={report.report} data-report={report.report}>
                <td>
                  <Link
                    href={
                      report.kind === "explore"
                        ? `/experiments/explore/${report.report}`
                        : `/experiments/${report.report}`
                    }
                  >
                    {report.name}
                  </Link>
                </td>
                <td>
                  <code>{report.report}</code>
                </td>
                <td>{formatTime(report.createdAt)}</td>
                <td class="num">{report.samples}</td>
                <td>
                  <RateBar rate={report.passRate} />
                  {formatPercent(report.passRate)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
