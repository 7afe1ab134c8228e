import { describe, expect, it } from "bun:test";
import { type ChainIndexStep, createMemoryStore } from "@uwf/cas";
import { sampleThreadId, writeSampleThread } from "@uwf/cas/test";
import { dropDamagedChainIndexes } from "./drop-damaged-chain-indexes.ts";

describe("dropDamagedChainIndexes", () => {
  it("drops the indexes that disagree with their chains, and only in a real run", async () => {
    const store = createMemoryStore();
    const damaged = await writeSampleThread(store, sampleThreadId(1), 2);
    const sound = await writeSampleThread(store, sampleThreadId(2), 2);
    const [first, second] = damaged.steps as [ChainIndexStep, ChainIndexStep];
    await store.refs.rememberChainIndex(damaged.record.id, { start: damaged.record.start, steps: [second, first] });
    await store.refs.rememberChainIndex(sound.record.id, { start: sound.record.start, steps: sound.steps });

    expect(await dropDamagedChainIndexes(store, { dryRun: true })).toEqual([damaged.record.id]);
    expect(await store.refs.recallChainIndex(damaged.record.id)).not.toBeNull();

    expect(await dropDamagedChainIndexes(store)).toEqual([damaged.record.id]);
    expect(await store.refs.recallChainIndex(damaged.record.id)).toBeNull();
    expect(await store.refs.recallChainIndex(sound.record.id)).toEqual({
      start: sound.record.start,
      steps: sound.steps,
    });
    expect(await dropDamagedChainIndexes(store)).toEqual([]);
  });
});
