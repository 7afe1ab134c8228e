import { buildLaunchResult, InvalidReplyError, safeExtractFrontmatter } from "@uwf/agent-kit";
import type { ChainStepDetails, Store } from "@uwf/cas";
import {
  type Address,
  type AgentRunNode,
  agentRunNodeSchema,
  type BudgetLimits,
  END,
  type ExploredBy,
  type FanOutNode,
  mergeBudgetLimits,
  newThreadBudget,
  SUSPEND,
  type ThreadOutcome,
  type ThreadRecord,
  type ThreadStepNode,
  type WorkflowNode,
  workflowNodeSchema,
  ZERO_USAGE,
} from "@uwf/protocol";
import { buildReplySchema, type CompiledWorkflow, compileWorkflow, pickNextRole } from "@uwf/workflow";
import { branchOutcome } from "../branches/branch-steps.ts";
import { readFanOut } from "../branches/read-fan-out.ts";
import { NoReplyToReplaceError } from "../errors/no-reply-to-replace-error.ts";
import { NodeNotOnThreadError } from "../errors/node-not-on-thread-error.ts";
import { UnroutableReplyError } from "../errors/unroutable-reply-error.ts";
import { WorkflowMismatchError } from "../errors/workflow-mismatch-error.ts";
import { chainRecordFields } from "../history/chain-record-fields.ts";
import { chainStepDetailsOf } from "../history/chain-step-details-of.ts";
import { readChain, type ThreadChain } from "../history/read-chain.ts";
import { recallChainDetails, withChainDetails } from "../history/recall-chain-details.ts";
import { rememberChainIndex } from "../history/remember-chain-index.ts";
import { ThreadHistory } from "../history/thread-history.ts";
import { withModeratorHistory } from "../history/with-moderator-history.ts";
import { isRoutingError } from "../routing/is-routing-error.ts";
import { outcomeOf } from "../routing/outcome-of.ts";
import { predictNextDecision } from "../routing/predict-next-role.ts";
import { routeReply } from "../routing/route-reply.ts";
import { indexThreadWords, startSearchTexts } from "../search/index-thread-words.ts";
import { NodeBatch } from "../step/node-batch.ts";
import { DUE_AT_ONCE } from "../suspensions/due-at-once.ts";
import { chainHolds, findForkParent, findNodeRecorder } from "./find-fork-parent.ts";
import { forkParentWithBranch } from "./fork-parent-with-branch.ts";

/** A reply that replaces the head step's (`fork --output`), and the file it came from, as errors name it. */
export interface ReplacementReply {
  text: string;
  file: string;
}

export interface ForkThreadOptions {
  store: Store;
  address: Address;
  /**
   * The thread forked from, as the user named it (a thread forked at its head, or `--from`): its chain
   * must hold the address. The lineage names the thread that recorded the node (findNodeRecorder, up
   * from this one). Without it the parent is found by findForkParent.
   */
  parent?: ThreadRecord;
  /** A replacement reply for the head step's role: the fork records it as a new step on the same `prev`. */
  replacementReply?: ReplacementReply;
  /** The budget flags' limits, over those the fork takes from its parent. */
  limits?: Partial<BudgetLimits>;
  /** Put the forks in the queue for workers (`queued: true`). */
  queued?: boolean;
  /**
   * Continue on another workflow version (`fork --workflow`), already stored: the fork runs under it, routed
   * by its graph from the node on, and its lineage names the workflow it left (its parent's). Refused with
   * WorkflowMismatchError when it lacks a role the fork needs or cannot route from the node, and for a
   * branch's fork (which forks the branch's parent too). The parent's own version makes a plain fork.
   */
  workflow?: { address: Address; node: WorkflowNode };
  /** Tags the forks as an exploration's re-runs (`uwf explore`): `list` and `tree` leave them out unless asked. */
  exploredBy?: ExploredBy;
  now(): Date;
  newId(): string;
}

export interface ForkThreadsOptions extends Omit<ForkThreadOptions, "replacementReply"> {
  /** One fork per entry, in order: null forks at the address as it stands, a reply makes a counterfactual. */
  forks: ReadonlyArray<ReplacementReply | null>;
  /** Stops making forks between batches (Ctrl-C, SIGTERM): the forks made so far are returned, no others made. */
  signal?: AbortSignal;
  /** How many forks' records are created in one transaction (default FORK_BATCH_SIZE). */
  batchSize?: number;
}

/**
 * How many forks' records forkThreads creates in one transaction: a process killed meanwhile leaves
 * whole batches of forks (each with its lineage, so `list --forks-of` finds them all), never half of one.
 */
export const FORK_BATCH_SIZE = 100;

/**
 * A new thread whose head is any start or step node. Nothing is copied: both threads share the chain.
 * The fork stands where its head leads: `ended` when that is `$END`, `suspended` when the head step
 * suspended. A replacement reply is routed before anything is written, and refused when it leads nowhere.
 * The record names its lineage: the parent thread, the step forked at, and whether that step's reply was replaced.
 * It takes its parent's limits (a flag beats each), and its spend counts from the fork point: the steps its
 * chain shares with the parent are the parent's, and its usage starts at zero.
 */
export async function forkThread(options: ForkThreadOptions): Promise<ThreadRecord> {
  const [record] = await forkThreads({ ...options, forks: [options.replacementReply ?? null] });
  return record as ThreadRecord;
}

/**
 * Many forks of one node (`fork --count N`, `fork --output DIR`), as forkThread makes each. The node,
 * its parent and every replacement reply are checked before anything is written, so one reply that
 * is invalid or leads nowhere fails the call with no fork made. The records are created a batch at a
 * time (FORK_BATCH_SIZE to a transaction), and `signal` stops the call between batches: it returns the
 * forks made until then, fewer than asked for.
 */
export async function forkThreads(options: ForkThreadsOptions): Promise<ThreadRecord[]> {
  const { store, address, now } = options;
  const chain = await readChain(store, address);
  const point = { address, step: chain.steps.length };
  if (options.parent !== undefined && !(await chainHolds(store, options.parent, point))) {
    throw new NodeNotOnThreadError(address, options.parent.id);
  }
  // The lineage names where the node was first recorded, however the fork was asked for.
  const parent =
    options.parent === undefined
      ? await findForkParent(store, { ...point, start: chain.startAddress })
      : await findNodeRecorder(store, options.parent, point);
  // A fork of a branch past its fan-out step is a counterfactual of that branch: its parent is forked too.
  const branchOrigin = parent?.branchOf;
  const branchFork =
    branchOrigin !== undefined && (branchOrigin.role === null || point.step > branchOrigin.step) ? branchOrigin : null;
  const endsBranch = branchFork !== null && branchFork.role !== null;
  // A fork runs under its parent's workflow (a fork onto another version moved it off its start node's).
  const left = parent?.workflowAddress ?? chain.start.workflow;
  const onto = options.workflow !== undefined && options.workflow.address !== left ? options.workflow : null;
  const workflow = onto?.node ?? workflowNodeSchema.parse(await store.objects.get(left));
  const compiled = compileWorkflow(workflow);
  const mismatch =
    onto === null
      ? null
      : (role: string | null, problem: string) =>
          new WorkflowMismatchError({
            workflow: workflow.name,
            workflowAddress: onto.address,
            node: address,
            step: point.step,
            role,
            problem,
          });
  if (mismatch !== null) {
    if (parent?.branchOf !== undefined) {
      throw mismatch(null, `${parent.id} is a branch, whose fork forks its parent too; fork the parent instead`);
    }
    const role = chain.nodes[chain.steps.length - 1]?.role;
    if (role !== undefined && workflow.roles[role] === undefined) {
      throw mismatch(role, `the node's role ${role} is not one of its roles`);
    }
  }
  // Each fork's id comes first: the moderator sees it while routing (a condition or edge prompt may read it).
  const planned: Array<{ id: string; replacement: CheckedReplacement | null; standing: Standing }> = [];
  // One history for every fork at the node as it stands: what the first one's moderator reads, the rest reuse.
  const history = new ThreadHistory(store.objects, chain);
  const batchSize = options.batchSize ?? FORK_BATCH_SIZE;
  for (const reply of options.forks) {
    if (planned.length % batchSize === 0 && (await stoppedMeanwhile(options.signal))) return [];
    const thread = { id: options.newId(), workflow: workflow.name };
    if (reply === null) {
      const standing = await standingAt(history, chain, compiled, thread, endsBranch, mismatch);
      planned.push({ id: thread.id, replacement: null, standing });
    } else {
      const replacement = await checkReplacement({ store, chain, reply, compiled, thread, now: now(), endsBranch });
      planned.push({ id: thread.id, replacement, standing: replacement });
    }
  }
  const budget = newThreadBudget(mergeBudgetLimits(options.limits, parent?.budget));
  // The steps the forks share with the thread forked from keep the details its chain index holds of them.
  const detailsFrom = options.parent?.id ?? parent?.id;
  const details =
    detailsFrom === undefined ? new Map<Address, ChainStepDetails>() : await recallChainDetails(store, detailsFrom);
  const records: ThreadRecord[] = [];
  for (let first = 0; first < planned.length && !(await stoppedMeanwhile(options.signal)); first += batchSize) {
    const batch: Array<{ record: ThreadRecord; chain: ThreadChain }> = [];
    for (const fork of planned.slice(first, first + batchSize)) batch.push(await newForkRecord(fork));
    if (branchFork === null) await store.refs.createThreads(batch.map((fork) => fork.record));
    else
      for (const fork of batch)
        await forkParentWithBranch(store, fork.record, { now: now(), parent: branchFork.thread });
    for (const fork of batch) {
      await rememberChainIndex(store, fork.record.id, {
        ...fork.chain,
        steps: withChainDetails(fork.chain.steps, details),
      });
      // Found by its prompt as its parent is; its own steps add their words as they are recorded.
      await indexThreadWords(store, fork.record.id, startSearchTexts(chain.start.prompt, chain.start.inputs));
      records.push(fork.record);
    }
  }
  return records;

  async function newForkRecord({ id, replacement, standing }: (typeof planned)[number]) {
    const written = replacement === null ? null : await writeReplacement(store, chain, replacement, id);
    const head = written?.address ?? address;
    const forkChain = written === null ? chain : withHeadDetails(await readChain(store, head), written.details);
    const createdAt = now().toISOString();
    const record: ThreadRecord = {
      ...chainRecordFields({ id, workflow, chain, head, workflowAddress: onto?.address ?? left }),
      status: standing.suspended !== null ? "suspended" : standing.next === END ? "ended" : "active",
      next: standing.next,
      reason: standing.suspended?.reason ?? null,
      stepCount: forkChain.steps.length,
      createdAt,
      updatedAt: createdAt,
      forkedFrom: {
        thread: parent?.id ?? null,
        step: point.step,
        address,
        replaced: replacement !== null,
        ...(onto === null ? {} : { workflow: left }),
      },
      usage: ZERO_USAGE,
    };
    if (standing.waiting) record.status = "waiting";
    // Its wait, if its role has one, runs from the head's step: the next pass of due work reads it.
    if (record.status === "suspended") record.deadline = DUE_AT_ONCE;
    // The branch's fork belongs to a fork of its parent, made with it (forkParentWithBranch).
    if (branchFork !== null) record.branchOf = { ...branchFork, thread: options.newId() };
    if (standing.outcome !== null && standing.next === END) record.outcome = standing.outcome;
    if (budget !== undefined) record.budget = budget;
    if (options.queued === true) record.queued = true;
    if (options.exploredBy !== undefined) record.exploredBy = { ...options.exploredBy };
    return { record, chain: forkChain };
  }
}

/**
 * True once `signal` has aborted. It first lets the event loop run: the store's reads and writes may
 * all complete at once (SQLite is synchronous), and a signal's handler, which aborts `signal`, runs
 * only when the loop gets a turn.
 */
async function stoppedMeanwhile(signal: AbortSignal | undefined): Promise<boolean> {
  if (signal === undefined) return false;
  await new Promise((resolve) => setImmediate(resolve));
  return signal.aborted;
}

/** Where a fork stands: the role it runs next (`$END` when done, null when unknown), why it waits if suspended, how it ended if it did. */
interface Standing {
  next: string | null;
  /** The step fanned out: the fork waits for fresh branches of its own, then joins them. */
  waiting?: boolean;
  suspended: { reason: string } | null;
  outcome: ThreadOutcome | null;
}

/**
 * A fork at the node as it is: suspended when that step suspended, else where the moderator goes next.
 * `mismatch` is set for a fork onto another workflow version: a role it lacks, or a route it cannot take
 * from the node, is refused with the error it makes rather than left for the next step to report.
 */
async function standingAt(
  history: ThreadHistory,
  chain: ThreadChain,
  compiled: CompiledWorkflow,
  thread: { id: string; workflow: string },
  endsBranch: boolean,
  mismatch: ((role: string | null, problem: string) => Error) | null,
): Promise<Standing> {
  const last = history.length > 0 ? await history.step(history.length - 1) : undefined;
  if (last !== undefined && last.output.$status === SUSPEND) {
    return { next: last.role, suspended: { reason: String(last.output.reason ?? "") }, outcome: null };
  }
  // A `role:` branch's reply ended it; a fan-out step's fork waits for branches of its own.
  if (last !== undefined && endsBranch) {
    return { next: END, suspended: null, outcome: branchOutcome(last.role, last.output) };
  }
  if (last !== undefined) {
    const plan = await readFanOut(history.objects, last.address);
    if (plan !== null) {
      // The fork's own branches run the roles the step planned, then its join.
      const roles = [...plan.branches.flatMap((branch) => (branch.role === null ? [] : [branch.role])), plan.join.role];
      const missing = mismatch === null ? undefined : roles.find((role) => compiled.workflow.roles[role] === undefined);
      if (mismatch !== null && missing !== undefined) {
        throw mismatch(missing, `the role ${missing} its fan-out's branches or join run is not one of its roles`);
      }
      return { next: plan.join.role, waiting: true, suspended: null, outcome: null };
    }
  }
  const mode = history.length === 0 ? "new" : "continue";
  const decision = await withModeratorHistory({ record: thread, start: chain.start, history }, async (view) => {
    if (mismatch === null) return predictNextDecision(compiled, view, mode);
    // The new graph must route from here: the moderator's error says why it cannot, before any fork is made.
    try {
      return await pickNextRole(compiled, view, { mode });
    } catch (error) {
      if (!isRoutingError(error)) throw error;
      throw mismatch(last?.role ?? null, `it cannot route from there: ${(error as Error).message}`);
    }
  });
  const ended = decision !== null && decision.role === END && last !== undefined;
  return {
    next: decision?.role ?? null,
    suspended: null,
    outcome: ended ? outcomeOf(compiled.workflow, decision, last.output) : null,
  };
}

interface CheckReplacementOptions {
  store: Store;
  /** The chain the fork starts from: its head step's reply is replaced. */
  chain: ThreadChain;
  reply: ReplacementReply;
  compiled: CompiledWorkflow;
  thread: { id: string; workflow: string };
  now: Date;
  /** The node is a `role:` branch's step: its reply ends the branch, with no routing. */
  endsBranch: boolean;
}

/** A replacement reply that passed the role's schema and routes: what writeReplacement records. */
interface CheckedReplacement extends Standing {
  /** The replacement leads here: the next role, `$END`, or its own role when it suspends. */
  next: string;
  reply: ReplacementReply;
  fields: Record<string, unknown>;
  body: string;
  timestamp: string;
  /** The replacement fans out: the plan its step records. */
  fanOut?: FanOutNode;
}

/** Checks and routes the replacement reply like an agent's; writes nothing. */
async function checkReplacement(options: CheckReplacementOptions): Promise<CheckedReplacement> {
  const { store, chain, reply, compiled, thread, now } = options;
  const workflow = compiled.workflow;
  const step = chain.nodes[chain.steps.length - 1];
  if (step === undefined) {
    throw new NoReplyToReplaceError(chain.startAddress);
  }
  const checked = safeExtractFrontmatter(reply.text, buildReplySchema(workflow, step.role));
  if (!checked.success) {
    throw new InvalidReplyError(checked.error.problem, reply.text, { file: reply.file, role: step.role });
  }
  const extracted = checked.value;
  const timestamp = now.toISOString();
  const replacement = { reply, fields: extracted.fields, body: extracted.body, timestamp };
  if (extracted.fields.$status === SUSPEND) {
    return {
      ...replacement,
      next: step.role,
      suspended: { reason: String(extracted.fields.reason ?? "") },
      outcome: null,
    };
  }
  if (options.endsBranch) {
    return { ...replacement, next: END, suspended: null, outcome: branchOutcome(step.role, extracted.fields) };
  }
  // The thread before the replaced step, with the replacement as its newest step.
  const before = { ...chain, steps: chain.steps.slice(0, -1), nodes: chain.nodes.slice(0, -1) };
  const routed = await routeReply({
    compiled,
    record: thread,
    start: chain.start,
    history: new ThreadHistory(store.objects, before),
    step: {
      role: step.role,
      output: extracted.fields,
      body: extracted.body,
      agent: "manual",
      startedAt: timestamp,
      completedAt: timestamp,
    },
  });
  if (!routed.success) {
    throw new UnroutableReplyError(reply.file, step.role, routed.problem);
  }
  const { route } = routed;
  const outcome = route.role === END ? outcomeOf(workflow, route, extracted.fields) : null;
  const fanOut =
    route.fanOut === undefined ? {} : { fanOut: { type: "fan-out/1", ...route.fanOut } as FanOutNode, waiting: true };
  return { ...replacement, next: route.role, suspended: null, outcome, ...fanOut };
}

/** Writes a checked replacement as a step on the head's `prev`, run by `manual` for the fork `thread`; returns its address. */
async function writeReplacement(
  store: Store,
  chain: ThreadChain,
  replacement: CheckedReplacement,
  thread: string,
): Promise<{ address: Address; details: ChainStepDetails }> {
  const step = chain.nodes[chain.steps.length - 1] as ThreadStepNode;
  const { timestamp } = replacement;
  const original = agentRunNodeSchema.parse(await store.objects.get(step.run));
  const batch = new NodeBatch();
  // A reply given by hand: no process ran, so nothing a launch records happened (no exit, signal or error).
  const { exitCode, signal, timedOut, interrupted, stderrTail, error } = buildLaunchResult(timestamp);
  const run: AgentRunNode = {
    type: "agent-run/1",
    agent: "manual",
    kind: "manual",
    command: null,
    cwd: original.cwd,
    prompt: original.prompt,
    attempts: [
      {
        request: original.prompt,
        reply: batch.addText(replacement.reply.text),
        exitCode,
        signal,
        timedOut,
        interrupted,
        stderrTail,
        error,
        startedAt: timestamp,
        completedAt: timestamp,
      },
    ],
    outcome: "ok",
    error: null,
    sessionId: null,
    usage: null,
    extraction: "manual",
    transcript: null,
    thread,
  };
  const { fanOut: _replacedFanOut, ...replaced } = step;
  const node: ThreadStepNode = {
    ...replaced,
    ...(replacement.fanOut === undefined ? {} : { fanOut: batch.add(replacement.fanOut) }),
    output: batch.add({ type: "output/1", fields: replacement.fields }),
    body: batch.addText(replacement.body),
    run: batch.add(run),
    startedAt: timestamp,
    completedAt: timestamp,
  };
  const address = batch.add(node);
  await batch.write(store.objects);
  return { address, details: chainStepDetailsOf(node, run, replacement.fields) };
}

/** The chain with the details of its head step, for its chain index. */
function withHeadDetails(chain: ThreadChain, details: ChainStepDetails): ThreadChain {
  const head = chain.steps.at(-1);
  if (head === undefined) return chain;
  return { ...chain, steps: [...chain.steps.slice(0, -1), { ...head, details }] };
}
