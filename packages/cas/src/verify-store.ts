import { type Address, listNodeRefs } from "@uwf/protocol";
import { CorruptNodeError } from "./corrupt-node-error.ts";
import { createRefGraph, type RefGraph } from "./create-ref-graph.ts";
import { listStoreRoots } from "./list-store-roots.ts";
import { NodeNotFoundError } from "./node-not-found-error.ts";
import type { ObjectStore, Store, TemporaryFileInfo } from "./store.ts";
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
 * Reads and re-hashes every object once, keeping each node's refs, then walks everything
 * reachable from the ref store's roots over those refs and reports nodes that are referenced
 * but absent. Returns data; never prints, never repairs. Like gc, it reads the whole object
 * store, which no other command does.
 */
export async function verifyStore(store: Store): Promise<VerifyReport> {
  const problems: VerifyProblem[] = [];
  const graph = createRefGraph();
  let checked = 0;
  for await (const { address } of store.objects.list()) {
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
  await walkNodes(scannedObjects(graph, store.objects), roots, {
    refsOf: (node) => (node instanceof ScannedNode ? node.refs : listNodeRefs(node)),
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

/** A node as the scan left it: only its refs, which are all the walk needs. */
class ScannedNode {
  readonly refs: Address[];
  constructor(refs: Address[]) {
    this.refs = refs;
  }
}

/**
 * The objects as the scan read them, for the walk. A node the scan did not read is read now:
 * it is absent (reported as missing), or it was written after the scan by a step that then
 * moved its thread's head, as the roots are listed after the scan.
 */
function scannedObjects(graph: RefGraph, objects: ObjectStore): Pick<ObjectStore, "get"> {
  return {
    get: async (address) => {
      const entry = graph.lookup(address as Address);
      if (entry.state === "read") return new ScannedNode(entry.refs);
      if (entry.state === "corrupt") throw new CorruptNodeError(address, "it failed verification in the scan");
      return objects.get(address);
    },
  };
}
