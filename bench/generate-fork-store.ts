/**
 * Builds a uwf home for the fork benchmarks (issue 17), in-process through the real store API as
 * generate-store.ts does, with the same six nodes per step:
 *
 * - a diverging pair: two threads of `pairSteps` steps sharing their first `pairCommonSteps`, the
 *   second recorded as a fork of the first at that step (what `uwf diff` compares);
 * - a family: an original of `familyRootSteps` steps and `familyForks` forks, each recorded with its
 *   lineage (parent thread, step, address), a parent chosen among the original and the older forks
 *   so that forks of forks nest several levels deep, and 0–2 steps of its own (what `uwf tree` draws);
 * - a source: one thread of `sourceSteps` steps with no relatives, to fork (`uwf fork --count N`).
 *
 *   bun bench/generate-fork-store.ts --home DIR [--pair 1000,500] [--family 1000] [--source 100]
 */
import { type ChainIndexStep, openFileStore } from "../packages/cas/src/index.ts";
import type { Address, ForkOrigin, ThreadStatus } from "../packages/protocol/src/index.ts";
import { addIndexedStep, addWorkflow, LOOP_WORKFLOW, NodeSink, threadRecord } from "./generate-store.ts";
import { parseGeneratorArguments } from "./lib/parse-generator-arguments.ts";
import { syntheticStart } from "./lib/synthetic-nodes.ts";
import { ulidAt } from "./lib/ulid.ts";

export interface GenerateForkStoreOptions {
  home: string;
  pairSteps: number;
  pairCommonSteps: number;
  familyRootSteps: number;
  familyForks: number;
  sourceSteps: number;
  /** The directory recorded as the threads' cwd. */
  cwd?: string;
}

export interface GeneratedForkStore {
  home: string;
  /** The two threads of the diverging pair: the original, then its fork. */
  pair: [string, string];
  /** The family's original, and its forks oldest first. */
  family: { original: string; forks: string[]; deepest: number };
  source: { thread: string; head: Address };
  threads: number;
  nodes: number;
  seconds: number;
}

/** A thread being generated: its id, chain (oldest first) and what its record needs. */
interface Member {
  id: string;
  created: Date;
  start: Address;
  /** Oldest first, as the thread's chain index names them (with what a diff shows of each). */
  chain: ChainIndexStep[];
  depth: number;
}

export async function generateForkStore(options: GenerateForkStoreOptions): Promise<GeneratedForkStore> {
  const began = performance.now();
  const store = await openFileStore(options.home);
  try {
    const sink = new NodeSink(store, 4096);
    const cwd = options.cwd ?? options.home;
    const { workflow, workflowAddress } = await addWorkflow(store, sink, LOOP_WORKFLOW);

    // Threads are made a second apart, oldest first, so ids (which sort by time) follow lineage.
    let clock = Date.now() - 86_400_000;
    const tick = () => {
      clock += 1000;
      return new Date(clock);
    };
    let threads = 0;
    const thread = async (member: Member, status: ThreadStatus, forkedFrom: ForkOrigin | null) => {
      await sink.flush();
      const head = member.chain.at(-1)?.address ?? member.start;
      const record = threadRecord(
        { id: member.id, workflow: workflow.name, workflowAddress, start: member.start, head },
        { status, steps: member.chain.length, created: member.created },
      );
      await store.refs.createThread({ ...record, forkedFrom });
      if (member.chain.length > 0) {
        await store.refs.rememberChainIndex(member.id, { start: member.start, steps: member.chain });
      }
      threads++;
    };
    /** Appends `count` steps of its own to a chain, tagged so no two threads share a node they did not fork. */
    const extend = (member: Member, tag: string, count: number, done = false) => {
      for (let index = 0; index < count; index++) {
        const number = member.chain.length + 1;
        const prev = member.chain.at(-1)?.address ?? null;
        const startedAt = tick();
        const last = index === count - 1;
        member.chain.push(
          addIndexedStep(sink, { tag, number, start: member.start, prev, startedAt, cwd, done: done && last }),
        );
      }
    };
    const original = (tag: string): Member => {
      const created = tick();
      return {
        id: ulidAt(created.getTime()),
        created,
        start: sink.add(syntheticStart(workflowAddress, tag, cwd)),
        chain: [],
        depth: 0,
      };
    };

    // The diverging pair.
    const left = original("pair");
    extend(left, "pair", options.pairCommonSteps);
    extend(left, "pair-left", options.pairSteps - options.pairCommonSteps);
    await thread(left, "active", null);
    const rightCreated = tick();
    const right: Member = {
      id: ulidAt(rightCreated.getTime()),
      created: rightCreated,
      start: left.start,
      chain: left.chain.slice(0, options.pairCommonSteps),
      depth: 1,
    };
    extend(right, "pair-right", options.pairSteps - options.pairCommonSteps);
    await thread(right, "active", {
      thread: left.id,
      step: options.pairCommonSteps,
      address: right.chain[options.pairCommonSteps - 1]?.address ?? right.start,
      replaced: false,
    });

    // The family: a deterministic pseudo-random parent and fork point for each fork.
    const root = original("family");
    extend(root, "family", options.familyRootSteps, true);
    await thread(root, "ended", null);
    const members: Member[] = [root];
    let state = 0x9e3779b9;
    const random = (bound: number) => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      return state % bound;
    };
    for (let index = 0; index < options.familyForks; index++) {
      // Half the forks are of the original, the rest of any older member, so lineage runs deep.
      const parent = (index % 2 === 0 ? root : members[random(members.length)]) as Member;
      const step = random(parent.chain.length + 1);
      const created = tick();
      const fork: Member = {
        id: ulidAt(created.getTime()),
        created,
        start: parent.start,
        chain: parent.chain.slice(0, step),
        depth: parent.depth + 1,
      };
      const own = index % 3;
      const ended = own === 2;
      extend(fork, `family-fork-${index}`, own, ended);
      const address = step === 0 ? parent.start : (parent.chain[step - 1] as ChainIndexStep).address;
      await thread(fork, ended ? "ended" : "active", { thread: parent.id, step, address, replaced: false });
      members.push(fork);
    }

    const source = original("source");
    extend(source, "source", options.sourceSteps);
    await thread(source, "active", null);
    await sink.flush();
    return {
      home: options.home,
      pair: [left.id, right.id],
      family: {
        original: root.id,
        forks: members.slice(1).map((member) => member.id),
        deepest: Math.max(...members.map((member) => member.depth)),
      },
      source: { thread: source.id, head: source.chain.at(-1)?.address ?? source.start },
      threads,
      nodes: sink.count,
      seconds: (performance.now() - began) / 1000,
    };
  } finally {
    await store.close();
  }
}

if (import.meta.main) {
  const values = parseGeneratorArguments(
    "usage: bun bench/generate-fork-store.ts --home DIR [--pair 1000,500] [--family 1000] [--source 100]",
    {
      pair: { type: "string", default: "1000,500" },
      family: { type: "string", default: "1000" },
      source: { type: "string", default: "100" },
    },
  );
  const [pairSteps, pairCommonSteps] = values.pair.split(",").map(Number);
  const result = await generateForkStore({
    home: values.home,
    pairSteps: pairSteps as number,
    pairCommonSteps: pairCommonSteps as number,
    familyRootSteps: 20,
    familyForks: Number(values.family),
    sourceSteps: Number(values.source),
  });
  console.log(JSON.stringify({ ...result, family: { ...result.family, forks: result.family.forks.length } }, null, 2));
}
