import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import type { Address } from "@uwf/protocol";
import { createTemporaryDirectory } from "../test/temporary-directory.ts";
import { openFileStore } from "./open-file-store.ts";
import { createSampleNodes, sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";
import { walkNodes } from "./walk-nodes.ts";

const WORKERS = 8;
const ATTEMPTS = 200;
const FIXTURE = join(import.meta.dir, "..", "test", "fixtures", "advance-head.ts");

describe("createSqliteRefStore under contention", () => {
  it("keeps every successful head advance of 8 processes racing 200 times each, and reports the rest as conflicts", async () => {
    const home = createTemporaryDirectory();
    const store = await openFileStore(home.path);
    const samples = createSampleNodes();
    await store.objects.putMany(Object.values(samples));
    const start = await store.objects.put(samples["thread-start/1"]);
    const threadId = sampleThreadId(1);
    await store.refs.createThread(sampleThreadRecord({ id: threadId, start, head: start }));

    const startAt = Date.now() + 1500;
    const workers = Array.from({ length: WORKERS }, (_, worker) =>
      Bun.spawn([process.execPath, FIXTURE, home.path, threadId, String(ATTEMPTS), String(worker), String(startAt)], {
        stdout: "pipe",
        stderr: "pipe",
      }),
    );
    const results = await Promise.all(
      workers.map(async (worker) => {
        const [stdout, stderr, exitCode] = await Promise.all([
          new Response(worker.stdout).text(),
          new Response(worker.stderr).text(),
          worker.exited,
        ]);
        expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: "" });
        return JSON.parse(stdout) as { successes: number; conflicts: number };
      }),
    );
    const successes = results.reduce((sum, result) => sum + result.successes, 0);
    const conflicts = results.reduce((sum, result) => sum + result.conflicts, 0);
    expect(successes + conflicts).toBe(WORKERS * ATTEMPTS);
    expect(conflicts).toBeGreaterThan(0);

    // Every success is one link of the final chain: none was overwritten by a racing writer.
    const record = await store.refs.getThread(threadId);
    expect(record?.stepCount).toBe(successes);
    let chainLength = 0;
    await walkNodes(store.objects, [record?.head as Address], {
      visit: () => {
        chainLength++;
      },
      refsOf: (node) => {
        const { prev } = node as { prev?: Address | null };
        return prev === undefined || prev === null ? [] : [prev];
      },
    });
    expect(chainLength).toBe(successes);
    await store.close();
    home.remove();
  }, 60_000);
});
