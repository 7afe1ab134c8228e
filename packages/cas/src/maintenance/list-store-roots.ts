import type { Address } from "@uwf/protocol";
import type { RefStore } from "../refs/ref-store.ts";

/** Everything the ref store points into the object store: thread roots and registered workflow versions. */
export async function listStoreRoots(refs: RefStore): Promise<Set<Address>> {
  const roots = new Set<Address>();
  for await (const root of refs.listThreadRoots()) roots.add(root);
  for (const entry of await refs.listWorkflows()) roots.add(entry.address);
  return roots;
}
