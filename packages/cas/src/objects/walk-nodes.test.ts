import { describe, expect, it } from "bun:test";
import type { Address } from "@uwf/protocol";
import { CorruptNodeError } from "../errors/corrupt-node-error.ts";
import { createMemoryObjectStore } from "../memory/create-memory-object-store.ts";
import { createSampleNodes } from "../testing/sample-nodes.ts";
import { walkNodes } from "./walk-nodes.ts";

describe("walkNodes", () => {
  it("follows a 100 000-step prev chain without exhausting the stack", async () => {
    const objects = createMemoryObjectStore();
    const samples = createSampleNodes();
    await objects.putMany(Object.values(samples));
    const first = samples["thread-step/1"] as { prev: Address | null };
    let prev: Address | null = null;
    for (let index = 0; index < 100_000; index++) {
      const step: { prev: Address | null; completedAt: string } = {
        ...first,
        prev,
        completedAt: new Date(index * 1000).toISOString(),
      };
      prev = (await objects.putMany([step]))[0] as Address;
    }
    let steps = 0;
    const result = await walkNodes(objects, [prev as Address], {
      visit: (_address, node) => {
        if ((node as { type: string }).type === "thread-step/1") steps++;
      },
    });
    expect(steps).toBe(100_000);
    // Every step plus the shared start, workflow, output, body, run, prompt, transcript and reply.
    expect(result.visited).toBe(100_008);
  }, 60_000);

  it("does not follow the refs of a node whose visit returns false", async () => {
    const objects = createMemoryObjectStore();
    const samples = createSampleNodes();
    await objects.putMany(Object.values(samples));
    const step = await objects.put(samples["thread-step/1"]);
    const visited: string[] = [];
    await walkNodes(objects, [step], {
      visit: async (_address, node) => {
        visited.push((node as { type: string }).type);
        return (node as { type: string }).type !== "thread-start/1";
      },
      refsOf: (node) => {
        const { start } = node as { start?: Address };
        return start === undefined ? [] : [start];
      },
    });
    expect(visited).toEqual(["thread-step/1", "thread-start/1"]);
  });

  it("passes corrupt nodes to onCorrupt instead of throwing when asked", async () => {
    const objects = createMemoryObjectStore();
    const failing = { get: async (address: string) => Promise.reject(new CorruptNodeError(address, "test")) };
    const corrupt: string[] = [];
    const result = await walkNodes(failing, ["2W53JPNXF556H"], { onCorrupt: (error) => void corrupt.push(error.code) });
    expect(corrupt).toEqual(["corrupt-node"]);
    expect(result).toEqual({ visited: 0, missing: 0, corrupt: 1 });
    await expect(walkNodes(failing, ["2W53JPNXF556H"])).rejects.toThrow(CorruptNodeError);
    expect(await objects.has("2W53JPNXF556H")).toBe(false);
  });
});
