import type { Address } from "@uwf/protocol";
import type { RefStore } from "../refs/ref-store.ts";

/**
 * Everything the ref store points into the object store: thread roots, registered workflow versions and
 * evaluation reports' nodes (which name the thread heads they scored, so those are kept too).
 */
export async function listStoreRoots(refs: RefStore): Promise<Set<Address>> {
  const roots = new Set<Address>();
  for await (const root of refs.listThreadRoots()) roots.add(root);
  for (const entry of await refs.listWorkflows()) roots.add(entry.address);
  for (const entry of (await refs.listEvalReports({})).reports) roots.add(entry.address);
  return roots;
}
