import { type Address, listNodeRefs } from "@uwf/protocol";
import { parseAddress } from "../encoding/parse-address.ts";
import { CorruptNodeError } from "../errors/corrupt-node-error.ts";
import { NodeNotFoundError } from "../errors/node-not-found-error.ts";
import type { ObjectStore } from "./object-store.ts";

export interface WalkNodesOptions {
  /**
   * Called once per node reached, depth first, each node's refs in field order. Return
   * (or resolve to) false to not follow this node's refs, as a thread reader stopping at the
   * start node would; any other result is ignored, so plain and async visitors both fit.
   */
  visit?: (address: Address, node: unknown) => unknown;
  /** A referenced node that is not stored (`referrer` null for a root). Default: throw NodeNotFoundError. */
  onMissing?: (address: Address, referrer: Address | null) => void | Promise<void>;
  /** A node that fails verification; its refs cannot be followed. Default: throw the error. */
  onCorrupt?: (error: CorruptNodeError, referrer: Address | null) => void | Promise<void>;
  /** Which refs to follow from a node; default every ref its kind declares (listNodeRefs). */
  refsOf?: (node: unknown, address: Address) => readonly Address[];
}

export interface WalkNodesResult {
  visited: number;
  missing: number;
  corrupt: number;
}

/**
 * The one traversal behind `cas walk`, `verify`, `gc` and thread reading: from the roots,
 * along the refs each node's kind declares, reading every node once. Iterative with an
 * explicit stack, so a 100 000-step thread (a `prev` chain that deep) cannot overflow.
 */
export async function walkNodes(
  objects: Pick<ObjectStore, "get">,
  roots: Iterable<string>,
  options: WalkNodesOptions = {},
): Promise<WalkNodesResult> {
  const refsOf = options.refsOf ?? listNodeRefs;
  const result: WalkNodesResult = { visited: 0, missing: 0, corrupt: 0 };
  const seen = new Set<Address>();
  const stack: { address: Address; referrer: Address | null }[] = [];
  const rootAddresses = [...roots].map((root) => parseAddress(root));
  for (let index = rootAddresses.length - 1; index >= 0; index--) push(rootAddresses[index] as Address, null);

  function push(address: Address, referrer: Address | null): void {
    if (seen.has(address)) return;
    seen.add(address);
    stack.push({ address, referrer });
  }

  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    let node: unknown;
    try {
      node = await objects.get(entry.address);
    } catch (error) {
      if (error instanceof NodeNotFoundError && options.onMissing !== undefined) {
        result.missing++;
        await options.onMissing(entry.address, entry.referrer);
        continue;
      }
      if (error instanceof CorruptNodeError && options.onCorrupt !== undefined) {
        result.corrupt++;
        await options.onCorrupt(error, entry.referrer);
        continue;
      }
      throw error;
    }
    result.visited++;
    if ((await options.visit?.(entry.address, node)) === false) continue;
    const refs = refsOf(node, entry.address);
    for (let index = refs.length - 1; index >= 0; index--) push(refs[index] as Address, entry.address);
  }
  return result;
}
