import { join } from "node:path";
import type { Address } from "@uwf/protocol";
import { walkNodes } from "../objects/walk-nodes.ts";
import type { Store } from "../store.ts";
import { runRacers } from "./run-racers.ts";
import { createSampleNodes, sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";

const FIXTURE = join(import.meta.dir, "fixtures", "advance-head.ts");

export interface HeadRace {
  successes: number;
  conflicts: number;
  /** The thread's step count after the race, and the length of the chain its head leads back along. */
  stepCount: number;
  chainLength: number;
}

/**
 * `workers` processes (test/fixtures/advance-head.ts) open the store at `location` (a home, or a
 * PostgreSQL URL) and race `attempts` times each to append a step to one thread by compare-and-swap.
 * What a backend must show: every success is a link of the final chain, and the rest were conflicts.
 */
export async function raceHeadAdvances(
  store: Store,
  location: string,
  { workers, attempts }: { workers: number; attempts: number },
): Promise<HeadRace> {
  const samples = createSampleNodes();
  await store.objects.putMany(Object.values(samples));
  const start = await store.objects.put(samples["thread-start/1"]);
  const threadId = sampleThreadId(1);
  await store.refs.createThread(sampleThreadRecord({ id: threadId, start, head: start }));

  const results = await runRacers<{ successes: number; conflicts: number }>(FIXTURE, workers, [
    location,
    threadId,
    String(attempts),
  ]);
  const record = await store.refs.getThread(threadId);
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
  return {
    successes: results.reduce((sum, result) => sum + result.successes, 0),
    conflicts: results.reduce((sum, result) => sum + result.conflicts, 0),
    stepCount: record?.stepCount ?? -1,
    chainLength,
  };
}
