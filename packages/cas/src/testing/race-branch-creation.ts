import { expect } from "bun:test";
import { join } from "node:path";
import type { BranchLink } from "../refs/branch-refs.ts";
import type { Store } from "../store.ts";
import { runRacers } from "./run-racers.ts";
import { sampleThreadId, sampleThreadRecord } from "./sample-nodes.ts";

const FIXTURE = join(import.meta.dir, "fixtures", "create-branches.ts");

/** The thread id worker `worker` gives branch `index` of step `step`: each worker's ids are its own. */
export function branchThreadId(worker: number, step: number, index: number): string {
  return sampleThreadId(step * 1000 + index + 1, `01J${"0123456789ABCDEFGHJKMNPQRSTVWXYZ".charAt(worker + 1)}`);
}

export interface BranchRace {
  parent: string;
  /** What each worker's last call of each step returned: `returned[worker][step - 1]`. */
  returned: BranchLink[][][];
}

/**
 * `workers` processes (fixtures/create-branches.ts) open the store at `location` (a home, or a PostgreSQL
 * URL) and make the same `keys` branches of the same `steps` steps of one parent at once, each with thread
 * ids of its own. What a backend must show: one link per key, and only the records of the links that won.
 */
export async function raceBranchCreation(
  store: Store,
  location: string,
  { workers, steps, keys }: { workers: number; steps: number; keys: number },
): Promise<BranchRace> {
  const parent = sampleThreadId(1);
  await store.refs.createThread(sampleThreadRecord({ id: parent, status: "waiting", next: "synthesizer" }));
  const returned = (
    await runRacers<{ links: BranchLink[][] }>(FIXTURE, workers, [location, parent, String(steps), String(keys)])
  ).map((result) => result.links);
  return { parent, returned };
}

/**
 * Asserts what a branch race must end with: `steps * keys` links, the same for every worker's last calls;
 * a record for each linked thread, made for its key, and no other record (the losers' were not inserted).
 */
export async function expectOneBranchPerKey(
  store: Store,
  race: BranchRace,
  { steps, keys }: { steps: number; keys: number },
): Promise<void> {
  const links = await store.refs.listBranches(race.parent);
  expect(links).toHaveLength(steps * keys);
  for (const [step, stepLinks] of Array.from(
    { length: steps },
    (_, index) => [index + 1, links.slice(index * keys, (index + 1) * keys)] as const,
  )) {
    expect(stepLinks.map((link) => [link.step, link.key])).toEqual(
      Array.from({ length: keys }, (_, index) => [step, `key-${index}`]),
    );
  }
  for (const returned of race.returned) expect(returned.flat()).toEqual(links);
  // A race it was: the links were won by more than one worker (an id's 4th character names its worker).
  expect(new Set(links.map((link) => link.thread.charAt(3))).size).toBeGreaterThan(1);
  const { threads } = await store.refs.listThreads({});
  const branches = threads.filter((thread) => thread.id !== race.parent);
  expect(branches.map((thread) => thread.id).sort()).toEqual(links.map((link) => link.thread).sort());
  const linkOf = new Map(links.map((link) => [link.thread, link]));
  for (const thread of branches) {
    const link = linkOf.get(thread.id);
    expect(thread.branchOf).toMatchObject({ thread: race.parent, step: link?.step, branch: link?.key });
  }
}
