import { type Address, listNodeRefs } from "@uwf/protocol";
import { CorruptNodeError } from "./corrupt-node-error.ts";
import { createRefGraph } from "./create-ref-graph.ts";
import { findChainIndexProblems } from "./find-chain-index-problems.ts";
import { listStoreRoots } from "./list-store-roots.ts";
import { NodeNotFoundError } from "./node-not-found-error.ts";
import { parseAddress } from "./parse-address.ts";
import type { Store, TemporaryFileInfo } from "./store.ts";

/**
 * Something `verify` found wrong: a stored object that fails its hash, a referenced one that is
 * not there, or a thread's chain index that disagrees with its chain (at `address`).
 */
export type VerifyProblem =
  | { kind: "corrupt"; address: Address; message: string }
  | { kind: "missing"; address: Address; referrer: Address | null; message: string }
  | { kind: "chain-index"; address: Address; thread: string; message: string };

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
 * Reads and re-hashes every object once, keeping each node's refs, then walks everything
 * reachable from the ref store's roots over those refs (as walkNodes would, without reading
 * the nodes again) and reports nodes that are referenced but absent; then checks each thread's
 * chain index against the step nodes it names (reading those again). Returns data; never
 * prints, never repairs. Like gc, it reads the whole object store, which no other command does.
 */
export async function verifyStore(store: Store): Promise<VerifyReport> {
  const problems: VerifyProblem[] = [];
  const graph = createRefGraph();
  let checked = 0;
  for await (const address of store.objects.list()) {
    let node: unknown;
    try {
      node = await store.objects.get(address);
    } catch (error) {
      if (error instanceof NodeNotFoundError) continue; // deleted since it was listed
      if (!(error instanceof CorruptNodeError)) throw error;
      checked++;
      graph.addCorrupt(address);
      problems.push({ kind: "corrupt", address, message: error.message });
      continue;
    }
    checked++;
    graph.addRead(address, listNodeRefs(node));
  }
  const leftovers: TemporaryFileInfo[] = [];
  for await (const leftover of store.objects.listTemporaryFiles()) leftovers.push(leftover);

  const roots = await listStoreRoots(store.refs);
  await graph.walk(
    [...roots].map((root) => parseAddress(root)),
    {
      // Not read by the scan: absent, or written since by a step that then moved a head.
      readLate: async (address) => {
        try {
          return listNodeRefs(await store.objects.get(address));
        } catch (error) {
          if (error instanceof NodeNotFoundError) return null;
          if (error instanceof CorruptNodeError) return []; // its refs cannot be followed
          throw error;
        }
      },
      onMissing: (address, referrer) => {
        const message =
          referrer === null
            ? `root ${address} is not in the store`
            : `node ${address}, referenced by ${referrer}, is not in the store`;
        problems.push({ kind: "missing", address, referrer, message });
      },
    },
  );
  for (const { threadId, address, message } of await findChainIndexProblems(store)) {
    problems.push({ kind: "chain-index", address, thread: threadId, message });
  }
  return { ok: problems.length === 0, checked, roots: roots.size, problems, leftovers };
}
