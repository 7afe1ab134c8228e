import type { Address } from "@uwf/protocol";
import type { EvalReportRefs } from "../refs/eval-report-refs.ts";
import type { ThreadRefs } from "../refs/thread-refs.ts";
import type { WorkflowRegistry } from "../refs/workflow-registry.ts";

/**
 * Everything the ref store points into the object store: thread roots, registered workflow versions and
 * evaluation reports' nodes (which name the thread heads they scored, so those are kept too).
 */
export async function listStoreRoots(refs: ThreadRefs & EvalReportRefs & WorkflowRegistry): Promise<Set<Address>> {
  const roots = new Set<Address>();
  for await (const root of refs.listThreadRoots()) roots.add(root);
  for (const entry of await refs.listWorkflows()) roots.add(entry.address);
  for (const entry of (await refs.listEvalReports({})).reports) roots.add(entry.address);
  return roots;
}
