import type { Address } from "@uwf/protocol";
import { CorruptNodeError } from "./corrupt-node-error.ts";
import { listStoreRoots } from "./list-store-roots.ts";
import { NodeNotFoundError } from "./node-not-found-error.ts";
import type { Store, TemporaryFileInfo } from "./store.ts";
import { walkNodes } from "./walk-nodes.ts";

/** Something `verify` found wrong: a stored object that fails its hash, or a referenced one that is not there. */
export type VerifyProblem =
  | { kind: "corrupt"; address: Address; message: string }
  | { kind: "missing"; address: Address; referrer: Address | null; message: string };

export interface VerifyReport {
  /** True when there are no problems; leftovers alone do not make a store unhealthy. */
  ok: boolean;
  /** Objects read and re-hashed. */
  checked: number;
  /** Roots (thread heads, starts, fork points, registry entries) the reachability check started from. */
  roots: number;
  problems: VerifyProblem[];
  /** Temporary files of interrupted writes: harmless, never read as objects, removed by `gc`. */
  leftovers: TemporaryFileInfo[];
}

/**
 * Reads and re-hashes every object, then walks everything reachable from the ref store's
 * roots and reports nodes that are referenced but absent. Returns data; never prints, never
 * repairs. Like gc, it reads the whole object store, which no other command does.
 */
export async function verifyStore(store: Store): Promise<VerifyReport> {
  const problems: VerifyProblem[] = [];
  let checked = 0;
  for await (const { address } of store.objects.list()) {
    try {
      await store.objects.get(address);
      checked++;
    } catch (error) {
      if (error instanceof NodeNotFoundError) continue; // deleted since it was listed
      if (!(error instanceof CorruptNodeError)) throw error;
      checked++;
      problems.push({ kind: "corrupt", address, message: error.message });
    }
  }
  const leftovers: TemporaryFileInfo[] = [];
  for await (const leftover of store.objects.listTemporaryFiles()) leftovers.push(leftover);

  const roots = await listStoreRoots(store.refs);
  await walkNodes(store.objects, roots, {
    onMissing: (address, referrer) => {
      const message =
        referrer === null
          ? `root ${address} is not in the store`
          : `node ${address}, referenced by ${referrer}, is not in the store`;
      problems.push({ kind: "missing", address, referrer, message });
    },
    // Already reported by the scan above; its refs cannot be followed.
    onCorrupt: () => {},
  });
  return { ok: problems.length === 0, checked, roots: roots.size, problems, leftovers };
}
