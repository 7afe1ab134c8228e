import type { Store } from "@uwf/cas";
import { type EvalListResult, evalReportNodeSchema } from "@uwf/protocol";

/** Stored reports, newest first, each with its sample count and pass rate (errored samples left out). */
export async function listEvalReports(
  store: Store,
  query: { name?: string; limit?: number; offset?: number },
): Promise<EvalListResult> {
  const page = await store.refs.listEvalReports(query);
  const reports = await Promise.all(
    page.reports.map(async (entry) => {
      const node = evalReportNodeSchema.parse(await store.objects.get(entry.address));
      const passed = node.samples.filter((sample) => sample.verdict === "passed").length;
      const judged = passed + node.samples.filter((sample) => sample.verdict === "failed").length;
      return {
        report: entry.id,
        address: entry.address,
        name: entry.name,
        createdAt: entry.createdAt,
        samples: node.samples.length,
        passRate: judged === 0 ? null : passed / judged,
      };
    }),
  );
  return { reports, total: page.total };
}
