import type { Store } from "@uwf/cas";
import type { EvalReportEntry, EvalReportNode, ExploreReportNode } from "@uwf/protocol";

/**
 * Writes the report's node (an evaluation's, or an exploration's: both are listed together), then names it
 * in the ref store under a new id: the node first, so an entry never names a missing node.
 */
export async function saveEvalReport(
  store: Store,
  node: EvalReportNode | ExploreReportNode,
  newId: () => string,
): Promise<EvalReportEntry> {
  const address = await store.objects.put(node);
  const entry: EvalReportEntry = { id: newId(), address, name: node.name, createdAt: node.createdAt };
  await store.refs.saveEvalReport(entry);
  return entry;
}
