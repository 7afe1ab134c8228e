import { compileWorkflow } from "@uwf/agent-kit";
import { findLeaseCutoff, type Store, ThreadExistsError } from "@uwf/cas";
import {
  ADDRESS_ALPHABET,
  type Address,
  addUsage,
  type CasRecoverResult,
  END,
  messageOf,
  SUSPEND,
  type ThreadRecord,
  type Usage,
  type WorkflowNode,
  workflowNodeSchema,
  ZERO_USAGE,
} from "@uwf/protocol";
import { findLostHeads } from "./find-lost-heads.ts";
import { predictNextRole } from "./predict-next-role.ts";
import { readChain, type ThreadChain } from "./read-chain.ts";
import { rememberChainIndex } from "./remember-chain-index.ts";
import { ThreadHistory } from "./thread-history.ts";
import { withModeratorHistory } from "./with-moderator-history.ts";

export interface RecoverThreadsOptions {
  store: Store;
  host: string;
  now(): Date;
}

export type RecoverThreadsResult = Omit<CasRecoverResult, "setAside">;

/**
 * `uwf cas recover`, like `git fsck --lost-found`: gives every lost head (findLostHeads) a thread
 * record again, marked with `recoveredFrom`, and registers, for each workflow name the registry lacks,
 * the version last written. A record's id is derived from its head (the time of the thread's first
 * step, then the head's address), and a head that a record reaches is never lost, so running it
 * again recovers nothing twice. A head written since the oldest step lease that may still commit is
 * left alone (`in-flight`: that step may yet move its thread there); one whose chain, start or
 * workflow node is missing or corrupt is reported `broken`.
 *
 * A recovered thread stands where its head leads, as a fork would: suspended when its last step
 * suspended, ended when the moderator routes it to `$END`, active otherwise. What the lost record
 * alone knew is not recovered: a cancelled status, the thread it was forked from.
 */
export async function recoverThreads(options: RecoverThreadsOptions): Promise<RecoverThreadsResult> {
  const { store } = options;
  const now = options.now();
  const scan = await findLostHeads(store);
  const cutoff = await findLeaseCutoff(store.refs, { now, host: options.host });
  const result: RecoverThreadsResult = { checked: scan.checked, recovered: [], registered: [], skipped: [] };
  for (const head of scan.lostHeads.sort()) {
    const writtenAt = (await store.objects.writtenAt(head)) ?? now.getTime();
    if (cutoff !== null && writtenAt >= cutoff) {
      const message = `head ${head} may belong to a step in flight (a step lease is held): run recover again once it is done`;
      result.skipped.push({ head, reason: "in-flight", message });
      continue;
    }
    let record: ThreadRecord;
    let chain: ThreadChain;
    try {
      chain = await readChain(store, head);
      record = await recoveredRecord(store, chain, head, writtenAt);
    } catch (error) {
      const detail = messageOf(error);
      result.skipped.push({
        head,
        reason: "broken",
        message: `the thread of head ${head} cannot be rebuilt: ${detail}`,
      });
      continue;
    }
    try {
      await store.refs.createThread(record);
    } catch (error) {
      if (error instanceof ThreadExistsError) continue; // recovered by a recover running alongside
      throw error;
    }
    await rememberChainIndex(store, record.id, chain);
    const { id: thread, workflow, stepCount: steps, status } = record;
    result.recovered.push({ thread, workflow, head, steps, status });
  }
  result.registered = await registerLostWorkflows(store, scan.workflows, now);
  return result;
}

async function recoveredRecord(
  store: Store,
  chain: ThreadChain,
  head: Address,
  headWrittenAt: number,
): Promise<ThreadRecord> {
  const workflow = workflowNodeSchema.parse(await store.objects.get(chain.start.workflow));
  const history = new ThreadHistory(store.objects, chain);
  const first = history.length > 0 ? await history.node(0) : undefined;
  const last = history.length > 0 ? await history.node(history.length - 1) : undefined;
  const createdAt = first?.startedAt ?? new Date(headWrittenAt).toISOString();
  const id = recoveredThreadId(Date.parse(createdAt), head);
  const standing = await standingOf(workflow, chain, history, { id, workflow: workflow.name });
  return {
    id,
    workflow: workflow.name,
    workflowAddress: chain.start.workflow,
    start: chain.startAddress,
    head,
    status: standing.status,
    next: standing.next,
    reason: standing.reason,
    stepCount: chain.steps.length,
    createdAt,
    updatedAt: last?.completedAt ?? createdAt,
    forkedFrom: null,
    usage: await totalUsage(history),
    recoveredFrom: head,
  };
}

/** Where the chain's head leads: as forkThread decides it for a fork of that head. */
async function standingOf(
  workflow: WorkflowNode,
  chain: ThreadChain,
  history: ThreadHistory,
  thread: { id: string; workflow: string },
): Promise<Pick<ThreadRecord, "status" | "next" | "reason">> {
  try {
    const last = history.length > 0 ? await history.step(history.length - 1) : undefined;
    if (last !== undefined && last.output.$status === SUSPEND) {
      return { status: "suspended", next: last.role, reason: String(last.output.reason ?? "") };
    }
    const mode = history.length === 0 ? "new" : "continue";
    const next = await withModeratorHistory({ record: thread, start: chain.start, history }, (view) =>
      predictNextRole(compileWorkflow(workflow), view, mode),
    );
    return { status: next === END ? "ended" : "active", next, reason: null };
  } catch {
    // An output, body or run of the chain is missing, or the workflow no longer compiles: the next
    // step tells, with the precise error.
    return { status: "active", next: null, reason: null };
  }
}

/** What the chain's agent runs cost, as far as their records are readable. */
async function totalUsage(history: ThreadHistory): Promise<Usage> {
  let usage = ZERO_USAGE;
  for (let index = 0; index < history.length; index++) {
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
