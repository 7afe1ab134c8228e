import { describe, expect, it } from "bun:test";
import { hashNode } from "../encoding/hash-node.ts";
import { InvalidAddressError } from "../errors/invalid-address-error.ts";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { ChainIndexStep, ChainLink, ChainStepDetails } from "../refs/chain-refs.ts";
import type { CurrentStore } from "./conformance-suite.ts";
import { sampleThreadId } from "./sample-nodes.ts";

/** The chain caches (`ChainRefs`: chain links and chain indexes) every backend must keep alike. */
export function describeChainConformance(current: CurrentStore): void {
  describe("chain links", () => {
    // Links of a made-up chain START <- one <- two <- three; any JSON will do, the store does not parse it.
    const START = "2W53JPNXF556H";
    const chain = (() => {
      const links: ChainLink[] = [];
      let prev = START;
      for (const name of ["one", "two", "three"]) {
        const { address, bytes } = hashNode({ type: "thread-step/1", name, prev });
        links.push({ address, prev, bytes });
        prev = address;
      }
      return links;
    })();
    const [one, two, three] = chain as [ChainLink, ChainLink, ChainLink];
    const addressesOf = (links: ChainLink[]) => links.map((link) => link.address);

    it("recalls a chain newest first, as far as it is cached", async () => {
      const { refs } = current();
      await refs.rememberChainLinks([one, three]);
      expect(addressesOf(await refs.recallChain(three.address))).toEqual([three.address]);
      await refs.rememberChainLinks([two]);
      const recalled = await refs.recallChain(three.address.toLowerCase());
      expect(recalled).toEqual([three, two, one]);
      expect(recalled.every((link) => link.bytes instanceof Uint8Array)).toBe(true);
      expect(addressesOf(await refs.recallChain(two.address))).toEqual([two.address, one.address]);
      expect(await refs.recallChain(START)).toEqual([]);
    });

    it("takes a link again, and hands out copies", async () => {
      const { refs } = current();
      await refs.rememberChainLinks([one, one]);
      await refs.rememberChainLinks([one]);
      const [recalled] = await refs.recallChain(one.address);
      recalled?.bytes.fill(0);
      expect(await refs.recallChain(one.address)).toEqual([one]);
    });

    it("refuses a whole batch when a link's bytes do not hash to its address, or an address is malformed", async () => {
      const { refs } = current();
      const forged = { ...two, bytes: three.bytes };
      await expect(refs.rememberChainLinks([one, forged])).rejects.toThrow(InvalidRecordError);
      await expect(refs.rememberChainLinks([one, { ...two, prev: "../x" }])).rejects.toThrow(InvalidAddressError);
      expect(await refs.recallChain(one.address)).toEqual([]);
      await expect(refs.recallChain("nope")).rejects.toThrow(InvalidAddressError);
    });

    it("forgets the links it is told to, and ignores addresses it does not cache", async () => {
      const { refs } = current();
      await refs.rememberChainLinks(chain);
      await refs.forgetChainLinks([two.address.toLowerCase(), START]);
      expect(addressesOf(await refs.recallChain(three.address))).toEqual([three.address]);
      expect(addressesOf(await refs.recallChain(one.address))).toEqual([one.address]);
    });
  });

  describe("chain indexes", () => {
    const threadId = sampleThreadId(1);
    const START = "2W53JPNXF556H";
    const index = {
      start: START,
      steps: [
        { address: "B1XRH20GCX3FB", role: "writer" },
        { address: "191B06QRP5RG9", role: "reviewer" },
      ],
    };

    it("recalls what it was last told for a thread, and nothing for another", async () => {
      const { refs } = current();
      expect(await refs.recallChainIndex(threadId)).toBeNull();
      await refs.rememberChainIndex(threadId, { start: START, steps: [] });
      await refs.rememberChainIndex(threadId, index);
      expect(await refs.recallChainIndex(threadId)).toEqual(index);
      expect(await refs.recallChainIndex(sampleThreadId(2))).toBeNull();
    });

    it("keeps addresses in canonical form, and hands out copies", async () => {
      const { refs } = current();
      await refs.rememberChainIndex(threadId, {
        start: START.toLowerCase(),
        steps: index.steps.map((step) => ({ ...step, address: step.address.toLowerCase() })),
      });
      const recalled = await refs.recallChainIndex(threadId);
      expect(recalled).toEqual(index);
      for (const step of (recalled?.steps ?? []) as readonly { role: string }[]) step.role = "changed";
      expect(await refs.recallChainIndex(threadId)).toEqual(index);
    });

    it("extends an index that ends at the given head, and no other", async () => {
      const { refs } = current();
      const [first, second] = index.steps as [ChainIndexStep, ChainIndexStep];
      const third = { address: "2SPNY716211N9", role: "writer" };
      expect(await refs.extendChainIndex(threadId, START, [first])).toBe(false);
      await refs.rememberChainIndex(threadId, { start: START, steps: [] });
      expect(await refs.extendChainIndex(threadId, first.address, [second])).toBe(false);
      expect(await refs.extendChainIndex(threadId, START.toLowerCase(), [first])).toBe(true);
      expect(await refs.extendChainIndex(threadId, first.address, [second, third])).toBe(true);
      expect(await refs.recallChainIndex(threadId)).toEqual({ start: START, steps: [first, second, third] });
      expect(await refs.extendChainIndex(threadId, second.address, [third])).toBe(false);
      expect(await refs.extendChainIndex(threadId, third.address, [])).toBe(true);
      expect(await refs.extendChainIndex(threadId, second.address, [])).toBe(false);
      await expect(refs.extendChainIndex(threadId, third.address, [{ address: "../x", role: "w" }])).rejects.toThrow(
        InvalidAddressError,
      );
      await expect(refs.extendChainIndex(threadId, third.address, [{ address: START, role: "" }])).rejects.toThrow(
        InvalidRecordError,
      );
      expect(await refs.recallChainIndex(threadId)).toEqual({ start: START, steps: [first, second, third] });
    });

    it("refuses an index with a malformed address or role, keeping the one it had", async () => {
      const { refs } = current();
      await refs.rememberChainIndex(threadId, index);
      await expect(
        refs.rememberChainIndex(threadId, { start: START, steps: [{ address: "../x", role: "writer" }] }),
      ).rejects.toThrow(InvalidAddressError);
      await expect(refs.rememberChainIndex(threadId, { start: "nope", steps: [] })).rejects.toThrow(
        InvalidAddressError,
      );
      await expect(
        refs.rememberChainIndex(threadId, { start: START, steps: [{ address: START, role: "" }] }),
      ).rejects.toThrow(InvalidRecordError);
      await expect(refs.rememberChainIndex(threadId, { start: START } as never)).rejects.toThrow(InvalidRecordError);
      expect(await refs.recallChainIndex(threadId)).toEqual(index);
    });

    // What a diff reads of each step; the usage's keys are out of canonical order, as an agent may report them.
    const details = (status: string | null, costUsd: number): ChainStepDetails => ({
      output: "2SPNY716211N9",
      body: "B1XRH20GCX3FB",
      agent: "scripted:review",
      startedAt: "2026-02-03T04:05:06.000Z",
      completedAt: "2026-02-03T04:05:26.500Z",
      status,
      usage: { outputTokens: 20, inputTokens: 10, costUsd, cacheWriteTokens: 0, cacheReadTokens: 3 },
    });
    const canonicalKeys = ["cacheReadTokens", "cacheWriteTokens", "costUsd", "inputTokens", "outputTokens"];

    it("keeps each step's details, recalled only when asked for, with the usage's keys in canonical order", async () => {
      const { refs } = current();
      const [first, second] = index.steps as [ChainIndexStep, ChainIndexStep];
      const detailed = {
        start: START,
        steps: [
          { ...first, details: details("approved", 0.0125) },
          { ...second, details: { ...details(null, 0), usage: null } },
        ],
      };
      await refs.rememberChainIndex(threadId, detailed);
      expect(await refs.recallChainIndex(threadId)).toEqual(index);
      const recalled = await refs.recallChainIndex(threadId, { details: true });
      expect(recalled).toEqual(detailed);
      expect(Object.keys(recalled?.steps[0]?.details?.usage ?? {})).toEqual(canonicalKeys);
      // Remembered again without them, the index has none.
      await refs.rememberChainIndex(threadId, index);
      expect(await refs.recallChainIndex(threadId, { details: true })).toEqual(index);
    });

    it("extends an index with steps' details, also one that had none, and steps without", async () => {
      const { refs } = current();
      const [first, second] = index.steps as [ChainIndexStep, ChainIndexStep];
      const third = { address: "2SPNY716211N9", role: "writer", details: details("done", 1) };
      await refs.rememberChainIndex(threadId, { start: START, steps: [first] });
      expect(await refs.extendChainIndex(threadId, first.address, [{ ...second, details: details(null, 0.5) }])).toBe(
        true,
      );
      expect(await refs.extendChainIndex(threadId, second.address, [third])).toBe(true);
      expect(await refs.extendChainIndex(threadId, third.address, [{ address: START, role: "writer" }])).toBe(true);
      expect(await refs.extendChainIndex(threadId, first.address, [third])).toBe(false);
      expect(await refs.recallChainIndex(threadId, { details: true })).toEqual({
        start: START,
        steps: [first, { ...second, details: details(null, 0.5) }, third, { address: START, role: "writer" }],
      });
      expect(await refs.recallChainIndex(threadId)).toEqual({
        start: START,
        steps: [first, second, { address: third.address, role: "writer" }, { address: START, role: "writer" }],
      });
    });

    it("refuses steps with malformed details, keeping the index it had", async () => {
      const { refs } = current();
      const [first, second] = index.steps as [ChainIndexStep, ChainIndexStep];
      await refs.rememberChainIndex(threadId, index);
      const malformed: unknown[] = [
        { ...details(null, 0), output: "../x" },
        { ...details(null, 0), agent: 7 },
        { ...details(null, 0), status: false },
        { ...details(null, 0), usage: { inputTokens: "10" } },
        { ...details(null, 0), usage: [1] },
        null,
      ];
      for (const bad of malformed) {
        const step = { ...first, details: bad as ChainStepDetails };
        const expected =
          bad !== null && (bad as ChainStepDetails).output === "../x" ? InvalidAddressError : InvalidRecordError;
        await expect(refs.rememberChainIndex(threadId, { start: START, steps: [step] })).rejects.toThrow(expected);
        await expect(refs.extendChainIndex(threadId, second.address, [{ ...step, address: START }])).rejects.toThrow(
          expected,
        );
      }
      expect(await refs.recallChainIndex(threadId, { details: true })).toEqual(index);
    });

    it("lists the threads that have an index, in id order, and forgets one on request", async () => {
      const { refs } = current();
      const listed = async () => {
        const ids: string[] = [];
        for await (const id of refs.listChainIndexedThreads()) ids.push(id);
        return ids;
      };
      expect(await listed()).toEqual([]);
      await refs.rememberChainIndex(sampleThreadId(3), index);
      await refs.rememberChainIndex(threadId, index);
      expect(await listed()).toEqual([threadId, sampleThreadId(3)]);
      await refs.forgetChainIndex(threadId);
      await refs.forgetChainIndex(sampleThreadId(2));
      expect(await refs.recallChainIndex(threadId)).toBeNull();
      expect(await refs.recallChainIndex(sampleThreadId(3))).toEqual(index);
      expect(await listed()).toEqual([sampleThreadId(3)]);
    });
  });
}
