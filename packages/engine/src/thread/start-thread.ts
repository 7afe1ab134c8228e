import { resolve } from "node:path";
import type { Store } from "@uwf/cas";
import { type BudgetLimits, type Config, type ThreadRecord, type ThreadStartNode, ZERO_USAGE } from "@uwf/protocol";
import { compileWorkflow, validateStartInputs } from "@uwf/workflow";
import { resolveThreadBudget } from "../budget/resolve-thread-budget.ts";
import { predictNextRole } from "../routing/predict-next-role.ts";
import { resolveWorkflow } from "./resolve-workflow.ts";

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

/** Writes the start node and the thread record, with its budget when it has one. No agent runs. */
export async function startThread(options: StartThreadOptions): Promise<ThreadRecord> {
  const { store, prompt, now } = options;
  const threadCwd = resolve(options.cwd, options.threadCwd ?? ".");
  const { address: workflowAddress, workflow } = await resolveWorkflow({
    ...options,
    reference: options.workflowReference,
  });
  const inputs = validateStartInputs(workflow, options.inputs ?? {});
  const startNode: ThreadStartNode = {
    type: "thread-start/1",
    workflow: workflowAddress,
    prompt,
    cwd: threadCwd,
  };
  if (Object.keys(inputs).length > 0) startNode.inputs = inputs;
  const start = await store.objects.put(startNode, { durable: true });
  const id = options.newId();
  const createdAt = now().toISOString();
  const history = { start: { prompt, workflow: workflow.name, cwd: startNode.cwd, inputs }, thread: { id }, steps: [] };
  const record: ThreadRecord = {
    id,
    workflow: workflow.name,
    workflowAddress,
    start,
    head: start,
    status: "active",
    next: await predictNextRole(compileWorkflow(workflow), history, "new"),
    reason: null,
    stepCount: 0,
    createdAt,
    updatedAt: createdAt,
    forkedFrom: null,
    usage: ZERO_USAGE,
  };
  const budget = resolveThreadBudget({ flags: options.limits, workflow, config: options.config });
  if (budget !== undefined) record.budget = budget;
  if (options.queued === true) record.queued = true;
  await store.refs.createThread(record);
  return record;
}
