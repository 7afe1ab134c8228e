import { type Address, listNodeRefs, nodeKind, type VerifyProblem, type VerifyReport } from "@uwf/protocol";
import { parseAddress } from "../encoding/parse-address.ts";
import { CorruptNodeError } from "../errors/corrupt-node-error.ts";
import { NodeNotFoundError } from "../errors/node-not-found-error.ts";
import type { TemporaryFileInfo } from "../objects/object-store.ts";
import { readEveryObject } from "../objects/read-every-object.ts";
import type { Store } from "../store.ts";
import { createRefGraph } from "./create-ref-graph.ts";
import { listDeletedThreadStarts } from "./list-deleted-thread-starts.ts";
import { listStoreRoots } from "./list-store-roots.ts";
import { missingNodeProblem } from "./missing-node-problem.ts";

/**
 * Reads and re-hashes every object once, keeping each node's refs and kind, then walks everything
 * reachable from the ref store's roots (evaluation reports' nodes among them) over those refs (as
 * walkNodes would, without reading the nodes again) and reports nodes that are referenced but absent
 * (a report's own node as the report's); counts what the walk did not reach by kind, and reports each
 * unreached thread start node (a thread no record names: the ref store was lost, or a `start` died
 * before recording its thread; not one of a thread `uwf delete` removed). Lost step heads are the
 * engine's findUnrecordedHeads, which `uwf cas verify` adds. Returns data; never prints, never
 * repairs. Like gc, it reads the whole object store, which no other command does. (Checking each
 * thread's chain index against its chain is thread logic: the engine's findChainIndexProblems.)
 */
export async function verifyStore(store: Store): Promise<VerifyReport> {
  const problems: VerifyProblem[] = [];
  const graph = createRefGraph();
  const kinds = new NodeKindTags();
  let checked = 0;
  for await (const object of readEveryObject(store.objects)) {
    checked++;
    if (object.corrupt === null) graph.addRead(object.address, listNodeRefs(object.node), kinds.tagOf(object.node));
    else {
      graph.addCorrupt(object.address);
      problems.push({ kind: "corrupt", address: object.address, message: object.corrupt.message });
    }
  }
  const leftovers: TemporaryFileInfo[] = [];
  for await (const leftover of store.objects.listTemporaryFiles()) leftovers.push(leftover);

  const roots = await listStoreRoots(store.refs);
  const reportsOf = await listEvalReportsByAddress(store);
  const deleted = await listDeletedThreadStarts(store);
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
        problems.push(missingNodeProblem(address, referrer, referrer === null ? reportsOf.get(address) : undefined));
      },
    },
  );
  const counts = new Map<string, number>();
  let unreachable = 0;
  graph.forEachUnreached((address, tag) => {
    const kind = kinds.kindOf(tag);
    unreachable++;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    if (kind === "thread-start/1" && !deleted.has(address)) {
      const message = `thread start node ${address} is reached by no thread record (the ref store may have been lost): \`uwf cas recover\` rebuilds its thread`;
      problems.push({ kind: "unrecorded-thread", address, message });
    }
  });
  const byKind = Object.fromEntries([...counts].sort(([, left], [, right]) => right - left));
  return {
    ok: problems.length === 0,
    checked,
    roots: roots.size,
    problems,
    unreachable: { total: unreachable, byKind },
    leftovers,
    abandoned: [],
  };
}

/** The ids of the evaluation reports, by the address of the node each names. */
async function listEvalReportsByAddress(store: Store): Promise<Map<Address, string[]>> {
  const byAddress = new Map<Address, string[]>();
  for (const { id, address } of (await store.refs.listEvalReports({})).reports.toReversed()) {
    byAddress.set(address, [...(byAddress.get(address) ?? []), id]);
  }
  return byAddress;
}

/** Node kinds as the small numbers the ref graph tags nodes with: 0 is plain JSON, 255 any kind past 254 others. */
class NodeKindTags {
  private readonly kinds = ["json"];
  private readonly tags = new Map<string, number>();

  tagOf(node: unknown): number {
    const kind = nodeKind(node);
    if (kind === null) return 0;
    let tag = this.tags.get(kind);
    if (tag === undefined) {
      tag = Math.min(this.kinds.length, 255);
      if (tag < 255) this.kinds.push(kind);
      this.tags.set(kind, tag);
    }
    return tag;
  }

  kindOf(tag: number): string {
    return this.kinds[tag] ?? "other";
  }
}
