import { describe, expect, it } from "bun:test";
import type { Address } from "@uwf/protocol";
import { createRefGraph } from "./create-ref-graph.ts";
import { encodeAddress } from "./encode-address.ts";

const addressOf = (index: number): Address => encodeAddress(BigInt(index) * 7_919n);

describe("createRefGraph", () => {
  it("gives back each read node's refs in order, repeats included, past its initial capacity", () => {
    const graph = createRefGraph();
    const count = 5000;
    const refsOf = (index: number) =>
      index === 0 ? [] : [addressOf(index - 1), addressOf(0), addressOf(index + 1), addressOf(index - 1)];
    for (let index = 0; index < count; index++) graph.addRead(addressOf(index), refsOf(index));
    for (let index = 0; index < count; index++) {
      expect(graph.lookup(addressOf(index))).toEqual({ state: "read", refs: refsOf(index) });
    }
    // Referenced by the last node but never read.
    expect(graph.lookup(addressOf(count))).toEqual({ state: "unread" });
    expect(graph.lookup(addressOf(count + 1))).toEqual({ state: "unread" });
  });

  it("tells a corrupt node from one it never saw", () => {
    const graph = createRefGraph();
    graph.addRead(addressOf(1), [addressOf(2)]);
    graph.addCorrupt(addressOf(2));
    expect(graph.lookup(addressOf(1))).toEqual({ state: "read", refs: [addressOf(2)] });
    expect(graph.lookup(addressOf(2))).toEqual({ state: "corrupt" });
    expect(graph.lookup(addressOf(3))).toEqual({ state: "unread" });
  });
});
