import type { Store } from "@uwf/cas";
import { type EvalListResult, type EvalSample, evalReportNodeSchema, exploreReportNodeSchema } from "@uwf/protocol";

/**
 * Stored reports, evaluations and explorations together, newest first, each with its sample count and
 * pass rate (errored samples left out; an exploration's over the re-runs of all its steps).
 */
export async function listEvalReports(
  store: Store,
  query: { name?: string; limit?: number; offset?: number },
): Promise<EvalListResult> {
  const page = await store.refs.listEvalReports(query);
  const reports = await Promise.all(
    page.reports.map(async (entry) => {
      const stored = await store.objects.get(entry.address);
      const explored = (stored as { type?: unknown } | null)?.type === "explore-report/1";
      const samples: EvalSample[] = explored
        ? exploreReportNodeSchema.parse(stored).steps.flatMap((step) => step.samples)
        : evalReportNodeSchema.parse(stored).samples;
      const passed = samples.filter((sample) => sample.verdict === "passed").length;
      const judged = passed + samples.filter((sample) => sample.verdict === "failed").length;
      return {
        report: entry.id,
        kind: explored ? ("explore" as const) : ("eval" as const),
        address: entry.address,
        name: entry.name,
        createdAt: entry.createdAt,
        samples: samples.length,
        passRate: judged === 0 ? null : passed / judged,
      };
    }),
  );
  return { reports, total: page.total };
}
