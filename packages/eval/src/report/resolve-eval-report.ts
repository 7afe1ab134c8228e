import type { Store } from "@uwf/cas";
import { type EvalReportEntry, type EvalReportNode, evalReportNodeSchema } from "@uwf/protocol";
import { AmbiguousEvalReportError } from "../errors/ambiguous-eval-report-error.ts";
import { EvalReportNotFoundError } from "../errors/eval-report-not-found-error.ts";

export interface StoredEvalReport {
  entry: EvalReportEntry;
  node: EvalReportNode;
}

/** A stored report by its full id or a unique prefix of it (case-insensitive), with its node. */
export async function resolveEvalReport(store: Store, reference: string): Promise<StoredEvalReport> {
  const entry = await findEntry(store, reference);
  return { entry, node: evalReportNodeSchema.parse(await store.objects.get(entry.address)) };
}

async function findEntry(store: Store, reference: string): Promise<EvalReportEntry> {
  const exact = await store.refs.getEvalReport(reference.toUpperCase());
  if (exact !== null) return exact;
  if (reference.length === 0) throw new EvalReportNotFoundError(reference);
  const candidates = await store.refs.findEvalReportIds(reference, 6);
  if (candidates.length > 1) throw new AmbiguousEvalReportError(reference, candidates);
  const only = candidates[0];
  const entry = only === undefined ? null : await store.refs.getEvalReport(only);
  if (entry === null) throw new EvalReportNotFoundError(reference);
  return entry;
}
