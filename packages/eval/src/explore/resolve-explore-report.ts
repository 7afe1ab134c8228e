import type { Store } from "@uwf/cas";
import { exploreReportNodeSchema } from "@uwf/protocol";
import { WrongReportKindError } from "../errors/wrong-report-kind-error.ts";
import { findEvalReportEntry } from "../report/resolve-eval-report.ts";
import type { StoredExploreReport } from "./explore-thread.ts";

/**
 * A stored exploration by its full id or a unique prefix (the report list's, shared with evaluations).
 * Throws EvalReportNotFoundError or AmbiguousEvalReportError as for a report, and WrongReportKindError
 * for an evaluation's report.
 */
export async function resolveExploreReport(store: Store, reference: string): Promise<StoredExploreReport> {
  const entry = await findEvalReportEntry(store, reference);
  const node = await store.objects.get(entry.address);
  const kind = (node as { type?: unknown } | null)?.type;
  if (kind !== "explore-report/1") throw new WrongReportKindError(entry.id, String(kind), "explore-report/1");
  return { entry, node: exploreReportNodeSchema.parse(node) };
}
