import type { Store } from "@uwf/cas";
import { type EvalReportEntry, type EvalReportNode, evalReportNodeSchema } from "@uwf/protocol";
import { AmbiguousEvalReportError } from "../errors/ambiguous-eval-report-error.ts";
import { EvalReportNotFoundError } from "../errors/eval-report-not-found-error.ts";
import { WrongReportKindError } from "../errors/wrong-report-kind-error.ts";

export interface StoredEvalReport {
  entry: EvalReportEntry;
  node: EvalReportNode;
}

/** A stored report by its full id or a unique prefix of it (case-insensitive), with its node. */
export async function resolveEvalReport(store: Store, reference: string): Promise<StoredEvalReport> {
  const entry = await findEvalReportEntry(store, reference);
  const node = await store.objects.get(entry.address);
  const kind = (node as { type?: unknown } | null)?.type;
  if (kind === "explore-report/1") throw new WrongReportKindError(entry.id, kind, "eval-report/1");
  return { entry, node: evalReportNodeSchema.parse(node) };
}

/** The ref store's entry of a report (an evaluation's or an exploration's) by its full id or a unique prefix. */
export async function findEvalReportEntry(store: Store, reference: string): Promise<EvalReportEntry> {
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
