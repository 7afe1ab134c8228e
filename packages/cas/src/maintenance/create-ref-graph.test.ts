import { describe, expect, it } from "bun:test";
import type { Address } from "@uwf/protocol";
import { hashBytes } from "../encoding/hash-node.ts";
import { CorruptNodeError } from "../errors/corrupt-node-error.ts";
import { NodeNotFoundError } from "../errors/node-not-found-error.ts";
import { walkNodes } from "../objects/walk-nodes.ts";
import { createRefGraph } from "./create-ref-graph.ts";

/** Spread over all 64 bits, so both halves of the graph's keys take negative values too. */
const addressOf = (index: number): Address => hashBytes(new TextEncoder().encode(`node ${index}`));

/** A reproducible random graph: some refs point at nodes that are missing, some nodes are corrupt. */
function randomGraph(count: number) {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const refs = new Map<Address, Address[]>();
  const corrupt = new Set<Address>();
  for (let index = 0; index < count; index++) {
    const address = addressOf(index);
    if (random() < 0.02) corrupt.add(address);
    else {
      const targets = Array.from({ length: Math.floor(random() * 5) }, () =>
        addressOf(Math.floor(random() * count * 1.1)),
      );
      refs.set(address, targets);
    }
  }
  const roots = Array.from({ length: 50 }, () => addressOf(Math.floor(random() * count * 1.05)));
  return { refs, corrupt, roots };
}

describe("createRefGraph", () => {
  it("finds the missing nodes walkNodes finds, with the same referrers, in the same order", async () => {
    const { refs, corrupt, roots } = randomGraph(20_000);
    const graph = createRefGraph();
    for (const [address, targets] of refs) graph.addRead(address, targets);
    for (const address of corrupt) graph.addCorrupt(address);
    const found: [Address, Address | null][] = [];
    await graph.walk(roots, {
      readLate: async () => null,
      onMissing: (address, referrer) => void found.push([address, referrer]),
    });

    const expected: [Address, Address | null][] = [];
    const objects = {
      get: async (address: string) => {
        if (corrupt.has(address as Address)) throw new CorruptNodeError(address, "test");
        if (!refs.has(address as Address)) throw new NodeNotFoundError(address);
        return {};
      },
    };
    await walkNodes(objects, roots, {
      refsOf: (_node, address) => refs.get(address) ?? [],
      onMissing: (address, referrer) => void expected.push([address, referrer]),
      onCorrupt: () => {},
    });
    expect(expected.length).toBeGreaterThan(100);
    expect(found).toEqual(expected);
  });

  it("reads nodes it was not given when the walk reaches them, and follows their refs", async () => {
    const [root, late, lateChild, corruptLate, absent] = [1, 2, 3, 4, 5].map(addressOf) as Address[];
    const graph = createRefGraph();
    graph.addRead(root as Address, [late as Address, corruptLate as Address]);
    const read: Address[] = [];
    const missing: [Address, Address | null][] = [];
    await graph.walk([root as Address, absent as Address], {
      readLate: async (address) => {
        read.push(address);
        if (address === late) return [lateChild as Address];
        if (address === corruptLate) return [];
        return null;
      },
      onMissing: (address, referrer) => void missing.push([address, referrer]),
    });
    expect(read).toEqual([late, lateChild, corruptLate, absent] as Address[]);
    expect(missing).toEqual([
      [lateChild as Address, late as Address],
      [absent as Address, null],
    ]);
  });
});
