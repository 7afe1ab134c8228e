import { type Store, ThreadExistsError } from "@uwf/cas";
import {
  ADDRESS_ALPHABET,
  type Address,
  addUsage,
  type CasRecoverResult,
  type Config,
  defaultConfig,
  END,
  messageOf,
  SUSPEND,
  type ThreadRecord,
  type Usage,
  type WorkflowNode,
  workflowNodeSchema,
  ZERO_USAGE,
} from "@uwf/protocol";
import { compileWorkflow } from "@uwf/workflow";
import { resolveThreadBudget } from "../budget/resolve-thread-budget.ts";
import { chainRecordFields } from "../history/chain-record-fields.ts";
import { readChain, type ThreadChain } from "../history/read-chain.ts";
import { rememberChainIndex } from "../history/remember-chain-index.ts";
import { ThreadHistory } from "../history/thread-history.ts";
import { withModeratorHistory } from "../history/with-moderator-history.ts";
import { outcomeOf } from "../routing/outcome-of.ts";
import { predictNextDecision } from "../routing/predict-next-role.ts";
import { DUE_AT_ONCE } from "../suspensions/due-at-once.ts";
import { deriveRecoveredLineage, type LineageThread, type RecoveredLineage } from "./derive-recovered-lineage.ts";
import { findUnrecordedHeads, type UnrecordedHead } from "./find-unrecorded-heads.ts";
import { chainOf, type ThreadNodeScan } from "./scan-thread-nodes.ts";

export interface RecoverThreadsOptions {
  store: Store;
  host: string;
  now(): Date;
  /** The home's config: a rebuilt thread's limits come from its workflow's `budget:` and this (as at `start`); default the default config. */
  config?: Config;
}

export type RecoverThreadsResult = Omit<CasRecoverResult, "setAside">;

/** What no recover can rebuild, because only the lost records held it; said with every recover that rebuilt something. */
export const NOT_REBUILT = [
  "a cancelled or failed status, a failure, and being queued for workers: a rebuilt thread stands where its head leads",
  "limits set by flags (`--max-steps` and the like): a rebuilt thread's come from its workflow's `budget:` and config",
  "a thread, or fork, that took no step of its own after its start node was continued by another: nothing in the objects names it",
  "usage of agent runs that did not become a step",
];

/**
 * `uwf cas recover`, like `git fsck --lost-found`: records every head the ref store does not
 * (findUnrecordedHeads). A recorded thread whose own steps go on past its recorded head (the ref store
 * was restored from an older copy) has its head moved forward there; every other head gets a record
 * again, marked with `recoveredFrom`: under the id its agent runs name (interior heads included: a
 * thread a fork stepped on from), or, for runs written before they named it, an id derived from its head
 * (the time of the thread's first step, then the head's address). Its lineage is derived from the shared
 * chains (deriveRecoveredLineage), its limits from its workflow and config, its usage from its own steps.
 * Parents are rebuilt before their forks. For each workflow name the registry lacks, the version last
 * written is registered. A head that a record reaches is never unrecorded, so running it again
 * recovers nothing twice. A head written since the oldest step lease that may still commit is left
 * alone (`in-flight`); one whose chain, start or workflow node is missing or corrupt is `broken`.
 *
 * A rebuilt thread stands where its head leads, as a fork would: suspended when its last step
 * suspended, ended when the moderator routes it to `$END`, active otherwise. What only the lost record
 * knew is listed in NOT_REBUILT.
 */
export async function recoverThreads(options: RecoverThreadsOptions): Promise<RecoverThreadsResult> {
  const { store } = options;
  const now = options.now();
  const found = await findUnrecordedHeads(store, { now, host: options.host });
  const { scan } = found;
  const result: RecoverThreadsResult = {
    checked: scan.checked,
    recovered: [],
    extended: [],
    registered: [],
    skipped: [],
    notRebuilt: [],
  };
  for (const head of found.inFlight) {
    const message = `head ${head.address} may belong to a step in flight (a step lease is held): run recover again once it is done`;
    result.skipped.push({ head: head.address, reason: "in-flight", message });
  }
  const lineage = new Map<string, LineageThread>(
    found.records.map((record) => [record.id, { id: record.id, chain: chainOf(scan, record.head) }]),
  );
  const broken = (head: Address, error: unknown) => {
    const message = `the thread of head ${head} cannot be rebuilt: ${messageOf(error)}`;
    result.skipped.push({ head, reason: "broken", message });
  };
  for (const head of found.heads) {
    if (head.behind === null) continue;
    try {
      const extended = await extendRecord(store, head.behind, head.address);
      if (extended === null) continue; // the thread moved meanwhile: its record stands
      lineage.set(extended.id, { id: extended.id, chain: chainOf(scan, extended.head) });
      result.extended.push({
        thread: extended.id,
        from: head.behind.head,
        head: head.address,
        steps: extended.stepCount,
      });
    } catch (error) {
      broken(head.address, error);
    }
  }
  const lost: Array<{ head: UnrecordedHead; id: string; createdAt: string }> = [];
  for (const head of found.heads) {
    if (head.behind !== null) continue;
    const createdAt = head.thread === null ? await firstStepTime(store, scan, head.address) : ulidTime(head.thread);
    const id = head.thread ?? recoveredThreadId(Date.parse(createdAt), head.address);
    lost.push({ head, id, createdAt });
  }
  // Oldest first, so a parent is known by the time its forks are rebuilt.
  lost.sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
  for (const { head, id, createdAt } of lost) {
    const thread = { id, chain: chainOf(scan, head.address) };
    const derived = deriveRecoveredLineage({ thread, scan, threads: [...lineage.values()] });
    let record: ThreadRecord;
    let chain: ThreadChain;
    try {
      chain = await readChain(store, head.address);
      record = await recoveredRecord(store, chain, {
        id,
        head: head.address,
        createdAt,
        derived,
        config: options.config,
      });
    } catch (error) {
      broken(head.address, error);
      continue;
    }
    try {
      await store.refs.createThread(record);
    } catch (error) {
      if (error instanceof ThreadExistsError) continue; // recovered by a recover running alongside
      throw error;
    }
    lineage.set(id, thread);
    await rememberChainIndex(store, record.id, chain);
    const { workflow, stepCount: steps, status } = record;
    const forkedFrom = record.forkedFrom?.thread ?? null;
    result.recovered.push({ thread: id, workflow, head: head.address, steps, status, forkedFrom });
  }
  result.registered = await registerLostWorkflows(store, scan.workflows, now);
  if (result.recovered.length > 0 || result.extended.length > 0) result.notRebuilt = [...NOT_REBUILT];
  return result;
}

/**
 * Moves a recorded thread's head forward to a newer head of its own chain: its steps, standing and
 * usage as its steps there say (a failure it had is gone: it stepped since). Null when its head moved meanwhile.
 */
async function extendRecord(store: Store, record: ThreadRecord, head: Address): Promise<ThreadRecord | null> {
  const chain = await readChain(store, head);
  const workflow = workflowNodeSchema.parse(await store.objects.get(chain.start.workflow));
  const history = new ThreadHistory(store.objects, chain);
  const standing = await standingOf(workflow, chain, history, record);
  const last = await history.node(history.length - 1);
  const moved = {
    head,
    ...standing,
    stepCount: chain.steps.length,
    updatedAt: last.completedAt,
    usage: addUsage(record.usage, await totalUsage(history, record.stepCount)),
  };
  const update = { ...moved, failure: null, outcome: moved.outcome ?? null };
  if (!(await store.refs.updateThread(record.id, record.head, update))) return null;
  const { failure: _failure, outcome: _outcome, ...kept } = record;
  const extended: ThreadRecord = { ...kept, ...moved };
  await rememberChainIndex(store, record.id, chain);
  return extended;
}

interface RecoveredRecordOptions {
  id: string;
  head: Address;
  createdAt: string;
  derived: RecoveredLineage;
  config: Config | undefined;
}

async function recoveredRecord(
  store: Store,
  chain: ThreadChain,
  options: RecoveredRecordOptions,
): Promise<ThreadRecord> {
  const { id, head, createdAt, derived } = options;
  const workflow = workflowNodeSchema.parse(await store.objects.get(chain.start.workflow));
  const history = new ThreadHistory(store.objects, chain);
  const last = history.length > 0 ? await history.node(history.length - 1) : undefined;
  const standing = await standingOf(workflow, chain, history, { id, workflow: workflow.name });
  const record: ThreadRecord = {
    ...chainRecordFields({ id, workflow, chain, head }),
    status: standing.status,
    next: standing.next,
    reason: standing.reason,
    ...(standing.outcome === undefined ? {} : { outcome: standing.outcome }),
    stepCount: chain.steps.length,
    createdAt,
    updatedAt: last?.completedAt ?? createdAt,
    forkedFrom: derived.forkedFrom,
    // A fork's spend counts from its fork point: the steps before are its parent's.
    usage: await totalUsage(history, Math.max(0, derived.ownFrom - 1)),
    recoveredFrom: head,
  };
  const config = options.config ?? defaultConfig();
  const budget = resolveThreadBudget({ flags: undefined, workflow, config });
  if (budget !== undefined) record.budget = budget;
  // Its wait, if its role has one, runs from the head's step: the next pass of due work reads it.
  if (record.status === "suspended") record.deadline = DUE_AT_ONCE;
  return record;
}

/** When the chain's first step started (when an anonymous thread began); the head's write time for a thread with no step. */
async function firstStepTime(store: Store, scan: ThreadNodeScan, head: Address): Promise<string> {
  const first = chainOf(scan, head)[1];
  const startedAt = first === undefined ? undefined : scan.steps.get(first)?.startedAt;
  if (startedAt !== undefined && startedAt !== "") return startedAt;
  return new Date((await store.objects.writtenAt(head)) ?? 0).toISOString();
}

/** The time a ULID was made (its first ten characters), as ISO 8601. */
function ulidTime(id: string): string {
  let time = 0;
  for (const character of id.slice(0, 10).toUpperCase()) time = time * 32 + ADDRESS_ALPHABET.indexOf(character);
  return new Date(time).toISOString();
}

/** Where the chain's head leads: as forkThread decides it for a fork of that head. */
async function standingOf(
  workflow: WorkflowNode,
  chain: ThreadChain,
  history: ThreadHistory,
  thread: { id: string; workflow: string },
): Promise<Pick<ThreadRecord, "status" | "next" | "reason" | "outcome">> {
  try {
    const last = history.length > 0 ? await history.step(history.length - 1) : undefined;
    if (last !== undefined && last.output.$status === SUSPEND) {
      return { status: "suspended", next: last.role, reason: String(last.output.reason ?? "") };
    }
    const mode = history.length === 0 ? "new" : "continue";
    const decision = await withModeratorHistory({ record: thread, start: chain.start, history }, (view) =>
      predictNextDecision(compileWorkflow(workflow), view, mode),
    );
    const next = decision?.role ?? null;
    if (next !== END) return { status: "active", next, reason: null };
    // How it ended is in the objects too: the last reply and the `$END` edge it takes.
    const outcome = decision !== null && last !== undefined ? outcomeOf(workflow, decision, last.output) : undefined;
    return { status: "ended", next, reason: null, ...(outcome === undefined ? {} : { outcome }) };
  } catch {
    // An output, body or run of the chain is missing, or the workflow no longer compiles: the next
    // step tells, with the precise error.
    return { status: "active", next: null, reason: null };
  }
}

/** What the chain's agent runs cost from step index `from` on, as far as their records are readable. */
async function totalUsage(history: ThreadHistory, from: number): Promise<Usage> {
  let usage = ZERO_USAGE;
  for (let index = from; index < history.length; index++) {
    try {
      const step = await history.step(index);
      if (step.usage !== null) usage = addUsage(usage, step.usage);
    } catch {
      // Unreadable: not counted.
    }
  }
  return usage;
}

/**
 * A ULID for a recovered thread: its time part is the thread's creation, and its random part is the
 * head's address (13 characters, unique to the head) followed by `REC`. So recovering a head always
 * gives it the same id, and the id sorts among the others by when the thread began.
 */
export function recoveredThreadId(time: number, head: Address): string {
  let timePart = "";
  for (let rest = Math.max(0, Math.floor(time)), index = 0; index < 10; index++, rest = Math.floor(rest / 32)) {
    timePart = ADDRESS_ALPHABET.charAt(rest % 32) + timePart;
  }
  return `${timePart}${head}REC`;
}

/** For each workflow name the registry lacks, the version of that name written last. */
async function registerLostWorkflows(
  store: Store,
  workflows: ReadonlyMap<Address, string>,
  now: Date,
): Promise<CasRecoverResult["registered"]> {
  const registered = new Set((await store.refs.listWorkflows()).map((entry) => entry.name));
  const newest = new Map<string, { address: Address; writtenAt: number }>();
  for (const [address, name] of workflows) {
    if (registered.has(name)) continue;
    const writtenAt = (await store.objects.writtenAt(address)) ?? 0;
    const current = newest.get(name);
    if (current === undefined || writtenAt > current.writtenAt) newest.set(name, { address, writtenAt });
  }
  const entries = [...newest].sort(([left], [right]) => (left < right ? -1 : 1));
  for (const [name, { address }] of entries) {
    await store.refs.setWorkflow({ name, address, updatedAt: now.toISOString() });
  }
  return entries.map(([name, { address }]) => ({ name, address }));
}
