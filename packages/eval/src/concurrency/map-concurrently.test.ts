import { describe, expect, it } from "bun:test";
import { mapConcurrently } from "./map-concurrently.ts";

describe("mapConcurrently", () => {
  it("keeps the input order with at most `concurrency` calls in flight", async () => {
    let running = 0;
    let most = 0;
    const results = await mapConcurrently([5, 1, 4, 2, 3], 2, async (value, index) => {
      running++;
      most = Math.max(most, running);
      await Bun.sleep(value);
      running--;
      return `${index}:${value}`;
    });
    expect(results).toEqual(["0:5", "1:1", "2:4", "3:2", "4:3"]);
    expect(most).toBe(2);
  });

  it("rejects with the first error and starts nothing after an abort", async () => {
    await expect(
      mapConcurrently([1, 2, 3], 1, async (value) => {
        if (value === 2) throw new Error("two");
        return value;
      }),
    ).rejects.toThrow("two");
    const controller = new AbortController();
    const seen: number[] = [];
    const run = mapConcurrently(
      [1, 2, 3],
      1,
      async (value) => {
        seen.push(value);
        controller.abort(new Error("stop"));
        return value;
      },
      controller.signal,
    );
    await expect(run).rejects.toThrow("stop");
    expect(seen).toEqual([1]);
  });
});
