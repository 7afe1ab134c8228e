import { resolve } from "node:path";
import type { Store } from "@uwf/cas";
import { type BudgetLimits, type Config, type ThreadRecord, type ThreadStartNode, ZERO_USAGE } from "@uwf/protocol";
import { compileWorkflow, validateStartInputs } from "@uwf/workflow";
import { resolveThreadBudget } from "../budget/resolve-thread-budget.ts";
import { predictNextRole } from "../routing/predict-next-role.ts";
import { indexThreadWords, startSearchTexts } from "../search/index-thread-words.ts";
import { resolveWorkflow } from "../workflows/resolve-workflow.ts";

export interface StartThreadOptions {
  store: Store;
  /** Its `budget` and `workflowBudgets` give the thread's limits where neither a flag nor the workflow does. */
  config: Config;
  /** The budget flags' limits (`--max-steps`, ...), which beat every other source. */
  limits?: Partial<BudgetLimits>;
  workflowReference: string;
  prompt: string;
  /** The start inputs (`--input`, `--inputs`), checked against the workflow's `inputs:` schema. */
  inputs?: Record<string, unknown>;
  /**
   * Where the thread's agents run, resolved against `cwd`; defaults to `cwd`. Not checked here: a
   * directory that is missing fails the first step (`no-working-directory`), so callers check it first.
   */
  threadCwd?: string;
  /** Put the thread in the queue for workers (`queued: true`), which claim only such threads. */
  queued?: boolean;
  /** The working directory: relative workflow paths and `threadCwd` are resolved against it. */
  cwd: string;
  home: string;
  now(): Date;
  newId(): string;
}

/** What one of startThreads' threads starts with. */
export interface ThreadStart {
  prompt: string;
  inputs?: Record<string, unknown>;
  threadCwd?: string;
}

export interface StartThreadsOptions extends Omit<StartThreadOptions, "prompt" | "inputs" | "threadCwd"> {
  /** One thread per entry, in order. */
  starts: readonly ThreadStart[];
}

/** Writes the start node and the thread record, with its budget when it has one. No agent runs. */
export async function startThread(options: StartThreadOptions): Promise<ThreadRecord> {
  const { prompt, inputs, threadCwd, ...rest } = options;
  const start: ThreadStart = { prompt };
  if (inputs !== undefined) start.inputs = inputs;
  if (threadCwd !== undefined) start.threadCwd = threadCwd;
  const [record] = await startThreads({ ...rest, starts: [start] });
  return record as ThreadRecord;
}

/**
 * Many threads of one workflow, each as startThread starts it, written together: the start nodes in
 * one durable batch, the records in one transaction (`uwf eval --suite` starts a suite's runs so).
 * Every start's inputs are checked before anything is written.
 */
export async function startThreads(options: StartThreadsOptions): Promise<ThreadRecord[]> {
  const records = await planThreads(options);
  if (records.length === 1) await options.store.refs.createThread(records[0] as ThreadRecord);
  else if (records.length > 1) await options.store.refs.createThreads(records);
  for (const [index, record] of records.entries()) {
    const start = options.starts[index];
    if (start !== undefined)
      await indexThreadWords(options.store, record.id, startSearchTexts(start.prompt, start.inputs));
  }
  return records;
}

/**
 * The records startThreads creates, with their start nodes written (content-addressed, harmless if
 * nothing ever names them), but not the records: what a schedule's fire creates in its own transaction.
 */
export async function planThreads(options: StartThreadsOptions): Promise<ThreadRecord[]> {
  const { store, now } = options;
  const { address: workflowAddress, workflow } = await resolveWorkflow({
    ...options,
    reference: options.workflowReference,
  });
  const compiled = compileWorkflow(workflow);
  const budget = resolveThreadBudget({ flags: options.limits, workflow, config: options.config });
  const nodes: ThreadStartNode[] = [];
  const planned: Array<{ id: string; inputs: Record<string, unknown>; node: ThreadStartNode }> = [];
  for (const entry of options.starts) {
    const inputs = validateStartInputs(workflow, entry.inputs ?? {});
    const node: ThreadStartNode = {
      type: "thread-start/1",
      workflow: workflowAddress,
      prompt: entry.prompt,
      cwd: resolve(options.cwd, entry.threadCwd ?? "."),
    };
    if (Object.keys(inputs).length > 0) node.inputs = inputs;
    nodes.push(node);
    planned.push({ id: options.newId(), inputs, node });
  }
  const addresses = await store.objects.putMany(nodes, { durable: true });
  const records: ThreadRecord[] = [];
  for (const [index, { id, inputs, node }] of planned.entries()) {
    const createdAt = now().toISOString();
    const history = {
      start: { prompt: node.prompt, workflow: workflow.name, cwd: node.cwd, inputs },
      thread: { id },
      steps: [],
    };
    const start = addresses[index] as string;
    const record: ThreadRecord = {
      id,
      workflow: workflow.name,
      workflowAddress,
      start,
      head: start,
      status: "active",
      next: await predictNextRole(compiled, history, "new"),
      reason: null,
      stepCount: 0,
      createdAt,
      updatedAt: createdAt,
      forkedFrom: null,
      usage: ZERO_USAGE,
    };
    if (budget !== undefined) record.budget = { ...budget };
    if (options.queued === true) record.queued = true;
    records.push(record);
  }
  return records;
}
