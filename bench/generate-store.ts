/**
 * Builds uwf homes for the benchmarks, in-process and through the real store API:
 * `loadWorkflowFile` + `objects.put` + `refs.setWorkflow` (what `uwf workflow add` does),
 * `objects.putMany` in large non-durable batches for the nodes, and `refs.createThread` and (for the
 * long threads) `refs.rememberChainIndex` for the records. Every generated step writes the six nodes a real `uwf step` writes (prompt, reply,
 * body, output, agent run, step), with realistic sizes.
 *
 *   bun bench/generate-store.ts --home DIR [--threads N] [--chains 1,100,1000] [--orphans N]
 */
import { addressOfNode, type ChainIndexStep, openFileStore, type Store } from "../packages/cas/src/index.ts";
import {
  type Address,
  type ThreadRecord,
  type ThreadStatus,
  type WorkflowNode,
  ZERO_USAGE,
} from "../packages/protocol/src/index.ts";
import { loadWorkflowFile } from "../packages/workflow/src/index.ts";
import { parseGeneratorArguments } from "./lib/parse-generator-arguments.ts";
import { syntheticStart, syntheticStep } from "./lib/synthetic-nodes.ts";
import { ulidAt } from "./lib/ulid.ts";

export const LOOP_WORKFLOW = new URL("./fixtures/loop.yaml", import.meta.url).pathname;

export interface GenerateStoreOptions {
  home: string;
  /** Defaults to bench/fixtures/loop.yaml: one role that routes back to itself until `done`. */
  workflowFile?: string;
  /** Threads of one or two steps (alternately), with a realistic mix of statuses. */
  fillerThreads: number;
  /** Long threads: one chain per entry, with `threads` active records (default 1) at its head. */
  chains?: readonly { steps: number; threads?: number }[];
  /** Failed agent runs nothing refers to (prompt, reply, run: 3 nodes each): what `gc` collects. */
  orphanRuns?: number;
  /** Nodes per `putMany` call; default 4096. */
  batchSize?: number;
  /** The directory recorded as the threads' cwd. */
  cwd?: string;
  onProgress?: (message: string) => void;
}

export interface GeneratedChain {
  steps: number;
  start: Address;
  head: Address;
  /** Active threads whose head is `head`, none of them ended. */
  threadIds: string[];
}

export interface GeneratedStore {
  home: string;
  workflow: { name: string; address: Address };
  chains: GeneratedChain[];
  /** Thread records created. */
  threads: number;
  /** Distinct nodes written, the workflow included. */
  nodes: number;
  seconds: number;
}

const FILLER_STATUSES: readonly ThreadStatus[] = [
  "ended",
  "ended",
  "ended",
  "active",
  "ended",
  "suspended",
  "cancelled",
];

export async function generateStore(options: GenerateStoreOptions): Promise<GeneratedStore> {
  const began = performance.now();
  const store = await openFileStore(options.home);
  try {
    const sink = new NodeSink(store, options.batchSize ?? 4096);
    const cwd = options.cwd ?? options.home;
    const { workflow, workflowAddress } = await addWorkflow(store, sink, options.workflowFile ?? LOOP_WORKFLOW);

    // Filler threads are created over the past days, oldest first; the long chains last (newest).
    const now = Date.now();
    const fillerCount = options.fillerThreads;
    const records: ThreadRecord[] = [];
    for (let index = 0; index < fillerCount; index++) {
      const created = new Date(now - (fillerCount - index) * 60_000);
      const tag = `filler-${index}`;
      const start = sink.add(syntheticStart(workflowAddress, tag, cwd));
      const steps = index % 2 === 0 ? 1 : 2;
      const status = FILLER_STATUSES[index % FILLER_STATUSES.length] as ThreadStatus;
      let head = start;
      for (let number = 1; number <= steps; number++) {
        const done = status === "ended" && number === steps;
        head = addStep(sink, { tag, number, start, prev: number === 1 ? null : head, startedAt: created, cwd, done });
      }
      records.push(
        threadRecord(
          { id: ulidAt(created.getTime()), workflow: workflow.name, workflowAddress, start, head },
          {
            status,
            steps,
            created,
          },
        ),
      );
      if (records.length >= 5000) await flushRecords(store, sink, records);
      if (index % 20_000 === 19_999) options.onProgress?.(`${index + 1} of ${fillerCount} filler threads`);
    }
    await flushRecords(store, sink, records);

    for (let index = 0; index < (options.orphanRuns ?? 0); index++) {
      const step = syntheticStep({
        tag: `orphan-${index}`,
        number: 1,
        start: workflowAddress,
        prev: null,
        startedAt: new Date(now),
        cwd,
      });
      sink.add(step.run({ prompt: sink.add(step.prompt), reply: sink.add(step.reply) }));
    }

    const chains: GeneratedChain[] = [];
    for (const [chainIndex, chain] of (options.chains ?? []).entries()) {
      // Steps 30 s apart, the last one a minute ago; chains in the order given.
      const created = new Date(now - chain.steps * 30_000 - 60_000 + chainIndex);
      const tag = `chain-${chainIndex}-${chain.steps}`;
      const start = sink.add(syntheticStart(workflowAddress, tag, cwd));
      let head = start;
      const indexSteps: ChainIndexStep[] = [];
      for (let number = 1; number <= chain.steps; number++) {
        const startedAt = new Date(created.getTime() + number * 30_000);
        const indexed = addIndexedStep(sink, { tag, number, start, prev: number === 1 ? null : head, startedAt, cwd });
        head = indexed.address;
        indexSteps.push(indexed);
        if (number % 5000 === 0) options.onProgress?.(`${number} of ${chain.steps} steps of a chain`);
      }
      await sink.flush();
      const threadIds: string[] = [];
      for (let copy = 0; copy < (chain.threads ?? 1); copy++) {
        const id = ulidAt(created.getTime());
        const record = threadRecord(
          { id, workflow: workflow.name, workflowAddress, start, head },
          {
            status: "active",
            steps: chain.steps,
            created,
          },
        );
        await store.refs.createThread(record);
        // As the steps that made such a thread would have left it.
        await store.refs.rememberChainIndex(id, { start, steps: indexSteps });
        threadIds.push(id);
      }
      chains.push({ steps: chain.steps, start, head, threadIds });
    }
    await sink.flush();
    const threads = fillerCount + chains.reduce((total, chain) => total + chain.threadIds.length, 0);
    return {
      home: options.home,
      workflow: { name: workflow.name, address: workflowAddress },
      chains,
      threads,
      nodes: sink.count,
      seconds: (performance.now() - began) / 1000,
    };
  } finally {
    await store.close();
  }
}

/** Collects nodes and writes them with `putMany` (non-durable) once a batch is full. */
/** Stores the workflow of `file` and names it, as `uwf workflow add` does; its node counts in `sink`. */
export async function addWorkflow(
  store: Store,
  sink: NodeSink,
  file: string,
): Promise<{ workflow: WorkflowNode; workflowAddress: Address }> {
  const { workflow } = await loadWorkflowFile(file);
  const workflowAddress = await store.objects.put(workflow);
  await store.refs.setWorkflow({
    name: workflow.name,
    address: workflowAddress,
    updatedAt: new Date().toISOString(),
  });
  sink.count++;
  return { workflow, workflowAddress };
}

export class NodeSink {
  count = 0;
  private pending: unknown[] = [];
  private writes: Promise<Address[]>[] = [];
  private readonly seen = new Set<Address>();

  private readonly store: Store;
  private readonly batchSize: number;

  constructor(store: Store, batchSize: number) {
    this.store = store;
    this.batchSize = batchSize;
  }

  add(node: unknown): Address {
    const address = addressOfNode(node);
    if (!this.seen.has(address)) {
      this.seen.add(address);
      this.pending.push(node);
      this.count++;
    }
    if (this.pending.length >= this.batchSize) {
      const batch = this.pending;
      this.pending = [];
      // Batches may overlap on the thread pool; each stays in memory until flush() awaits them all.
      this.writes.push(this.store.objects.putMany(batch));
    }
    return address;
  }

  async flush(): Promise<void> {
    if (this.pending.length > 0) this.writes.push(this.store.objects.putMany(this.pending));
    this.pending = [];
    await Promise.all(this.writes);
    this.writes = [];
  }
}

export function addStep(sink: NodeSink, input: Parameters<typeof syntheticStep>[0]): Address {
  return addIndexedStep(sink, input).address;
}

/** A step added as addStep adds it, as the engine's chain index names it: with what a diff shows of it. */
export function addIndexedStep(sink: NodeSink, input: Parameters<typeof syntheticStep>[0]): ChainIndexStep {
  const step = syntheticStep(input);
  const runNode = step.run({ prompt: sink.add(step.prompt), reply: sink.add(step.reply) });
  const run = sink.add(runNode);
  const output = sink.add(step.output);
  const body = sink.add(step.body);
  const node = step.step({ output, body, run });
  const status = step.output.fields.$status;
  const details = {
    output,
    body,
    agent: runNode.agent,
    startedAt: node.startedAt,
    completedAt: node.completedAt,
    status: typeof status === "string" ? status : null,
    usage: runNode.usage,
  };
  return { address: sink.add(node), role: node.role, details };
}

export function threadRecord(
  identity: Pick<ThreadRecord, "id" | "workflow" | "workflowAddress" | "start" | "head">,
  state: { status: ThreadStatus; steps: number; created: Date },
): ThreadRecord {
  const createdAt = state.created.toISOString();
  return {
    ...identity,
    status: state.status,
    next: state.status === "ended" ? "$END" : "worker",
    reason: state.status === "suspended" ? "Which database should I use?" : null,
    stepCount: state.steps,
    createdAt,
    updatedAt: new Date(state.created.getTime() + state.steps * 30_000).toISOString(),
    forkedFrom: null,
    usage: ZERO_USAGE,
  };
}

/** Records are created only once their heads are written, so the store is consistent at every point. */
async function flushRecords(store: Store, sink: NodeSink, records: ThreadRecord[]): Promise<void> {
  await sink.flush();
  for (const record of records) await store.refs.createThread(record);
  records.length = 0;
}

if (import.meta.main) {
  const values = parseGeneratorArguments(
    "usage: bun bench/generate-store.ts --home DIR [--threads N] [--chains 1,100,1000] [--orphans N]",
    {
      threads: { type: "string", default: "1000" },
      chains: { type: "string", default: "" },
      orphans: { type: "string", default: "0" },
    },
  );
  const chains = values.chains === "" ? [] : values.chains.split(",").map((steps) => ({ steps: Number(steps) }));
  const result = await generateStore({
    home: values.home,
    fillerThreads: Number(values.threads),
    chains,
    orphanRuns: Number(values.orphans),
    onProgress: (message) => console.error(message),
  });
  console.log(JSON.stringify(result, null, 2));
}
