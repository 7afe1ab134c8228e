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
    const delays = [5, 5, 30, 40, 0];
    const started: number[] = [];
    const settled: number[] = [];
    const run = forEachConcurrently([...Array(20).keys()], 3, async (item) => {
      started.push(item);
      await Bun.sleep(delays[item] ?? 0);
      settled.push(item);
      if (item === 4) throw new Error("item 4 failed");
      if (item === 3) throw new Error("item 3 failed later");
    });
    await expect(run).rejects.toThrow("item 4 failed");
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(settled).toEqual([0, 1, 4, 2, 3]);
  });
});
