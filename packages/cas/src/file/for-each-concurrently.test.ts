import { describe, expect, it } from "bun:test";
import { forEachConcurrently } from "./for-each-concurrently.ts";

describe("forEachConcurrently", () => {
  it("runs every item, never more than the limit at once", async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await forEachConcurrently([...Array(50).keys()], 4, async (item) => {
      running++;
      most = Math.max(most, running);
      await Bun.sleep(item % 3);
      running--;
      done.push(item);
    });
    expect(most).toBe(4);
    expect(done.sort((left, right) => left - right)).toEqual([...Array(50).keys()]);
  });

  it("starts nothing after a failure, waits for the running tasks, then throws the first failure", async () => {
    // Each task waits for its gate, so the order of events is the test's, not the timers'.
    const gates = [...Array(20).keys()].map(() => Promise.withResolvers<void>());
    const started: number[] = [];
    const settled: number[] = [];
    const run = forEachConcurrently([...Array(20).keys()], 3, async (item) => {
      started.push(item);
      await gates[item]?.promise;
      settled.push(item);
      if (item === 4) throw new Error("item 4 failed");
      if (item === 3) throw new Error("item 3 failed later");
    });
    const outcome = run.then(
      () => "resolved",
      (error: Error) => error.message,
    );
    let finished = false;
    void outcome.then(() => {
      finished = true;
    });
    const release = async (item: number) => {
      gates[item]?.resolve();
      await Bun.sleep(0);
    };
    await release(0);
    await release(1);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    await release(4);
    await release(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(finished).toBe(false);
    await release(3);
    expect(await outcome).toBe("item 4 failed");
    expect(settled).toEqual([0, 1, 4, 2, 3]);
  });
});
