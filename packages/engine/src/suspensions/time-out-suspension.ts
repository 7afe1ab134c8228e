import type { Store, ThreadUpdate } from "@uwf/cas";
import {
  type AgentRunNode,
  END,
  type FanOutNode,
  type ThreadFailure,
  type ThreadRecord,
  type ThreadStepNode,
  TIMEOUT,
  type WorkflowNode,
} from "@uwf/protocol";
import { compileWorkflow, isTimeoutEdge, type ModeratorDecision, NoTransitionError, pickNextRole } from "@uwf/workflow";
import type { SuspensionWait } from "../answers/read-suspension-wait.ts";
import { branchOutcome, isRoleBranch } from "../branches/branch-steps.ts";
import { type EnsureBranchesOptions, ensureBranches } from "../branches/ensure-branches.ts";
import { SuspendTimeoutError } from "../errors/suspend-timeout-error.ts";
import { chainStepDetailsOf } from "../history/chain-step-details-of.ts";
import { readChain } from "../history/read-chain.ts";
import { rememberChainIndex } from "../history/remember-chain-index.ts";
import { storedNodeAs } from "../history/stored-node.ts";
import { ThreadHistory } from "../history/thread-history.ts";
import { TIMEOUT_AGENT, TIMEOUT_RUN_KIND } from "../history/timeout-run.ts";
import { withModeratorHistory } from "../history/with-moderator-history.ts";
import type { HeldLease } from "../lease/with-thread-lease.ts";
import { outcomeOf } from "../routing/outcome-of.ts";
import { describeFailure } from "../step/fail-thread.ts";
import { NodeBatch } from "../step/node-batch.ts";
import { applyThreadUpdate } from "../thread/apply-thread-update.ts";

/** What became of a suspension whose wait ran out: where its timeout step led (`$END`, a role), or null when the thread failed. */
export interface TimedOutSuspension {
  record: ThreadRecord;
  routed: string | null;
}

/** The edge prompt of a timeout step: what the role (and a reader of the thread) is told. */
export function timeoutEdgePrompt(wait: SuspensionWait): string {
  return `No answer came within ${wait.after} (suspended at ${wait.suspendedAt}, until ${wait.deadline}): the wait for an answer ran out.`;
}

/**
 * Under the thread's lease, with `record` read under it and still suspended at the head `wait` was read
 * from: records the timeout step and routes it by the role's `$timeout` edges (to a role: `active`; to
 * `$END`: `ended`; a fan-out: `waiting`, its branches made), or, with no such edge, sets the thread
 * `failed` (`suspend-timeout`) and records no step. A `role:` branch's timeout step ends the branch, as
 * its reply would have. The head moves by compare-and-swap, so only one process ever does either.
 * Null when the head moved meanwhile.
 */
export async function timeOutSuspension(
  store: Store,
  record: ThreadRecord,
  wait: SuspensionWait,
  now: Date,
  options: EnsureBranchesOptions,
  /** The thread's lease, held by the caller: the step's head is recorded in it before its node is written. */
  lease: Pick<HeldLease, "recordHead">,
): Promise<TimedOutSuspension | null> {
  const workflow = storedNodeAs<WorkflowNode>(
    "workflow/1",
    record.workflowAddress,
    await store.objects.get(record.workflowAddress),
  );
  const at = now.toISOString();
  const endsBranch = isRoleBranch(record);
  const hasEdge = (workflow.graph[wait.role] ?? []).some(isTimeoutEdge);
  if (!endsBranch && !hasEdge) return failThread(store, record, wait, at, null);

  const chain = await readChain(store, record.head, { thread: record });
  const history = new ThreadHistory(store.objects, chain);
  const edgePrompt = timeoutEdgePrompt(wait);
  const fields = { $status: TIMEOUT };
  const moderatorStep = {
    role: wait.role,
    output: fields,
    body: "",
    agent: TIMEOUT_AGENT,
    startedAt: at,
    completedAt: at,
  };
  let decision: ModeratorDecision;
  if (endsBranch) {
    const edge = { role: END, condition: null, status: null, prompt: "" };
    decision = { role: END, prompt: "", transition: edge, from: wait.role };
  } else {
    try {
      decision = await withModeratorHistory({ record, start: chain.start, history, next: moderatorStep }, (view) =>
        pickNextRole(compileWorkflow(workflow), view, { mode: "continue" }),
      );
    } catch (error) {
      // No `$timeout` edge holds (each tests a condition that does not): as if there were none, answered late.
      if (error instanceof NoTransitionError) return failThread(store, record, wait, at, null);
      // A `$timeout` edge whose prompt cannot render, or whose fan-out cannot be planned: the thread fails with why.
      return failThread(store, record, wait, at, error);
    }
  }

  const batch = new NodeBatch();
  const prompt = batch.addText(edgePrompt);
  const run: AgentRunNode = {
    type: "agent-run/1",
    agent: TIMEOUT_AGENT,
    kind: TIMEOUT_RUN_KIND,
    command: null,
    cwd: chain.start.cwd,
    prompt,
    attempts: [],
    outcome: "ok",
    error: null,
    sessionId: null,
    usage: null,
    extraction: null,
    transcript: null,
    thread: record.id,
  };
  const stepNode: ThreadStepNode = {
    type: "thread-step/1",
    start: chain.startAddress,
    prev: record.head,
    role: wait.role,
    edgePrompt,
    output: batch.add({ type: "output/1", fields }),
    body: batch.addText(""),
    run: batch.add(run),
    startedAt: at,
    completedAt: at,
    timedOut: { suspendedAt: wait.suspendedAt, deadline: wait.deadline, after: wait.after },
  };
  const fanOut = decision.fanOut;
  if (fanOut !== undefined) stepNode.fanOut = batch.add({ type: "fan-out/1", ...fanOut } satisfies FanOutNode);
  const stepAddress = batch.add(stepNode);
  await lease.recordHead(stepAddress);
  await batch.write(store.objects);

  const ended = decision.role === END;
  const update: ThreadUpdate = {
    head: stepAddress,
    status: ended ? "ended" : fanOut !== undefined ? "waiting" : "active",
    next: decision.role,
    reason: null,
    stepCount: chain.steps.length + 1,
    updatedAt: at,
    ...(ended
      ? { outcome: endsBranch ? branchOutcome(wait.role, fields) : outcomeOf(workflow, decision, fields) }
      : {}),
  };
  if (!(await store.refs.updateThread(record.id, record.head, update))) return null;
  const details = chainStepDetailsOf(stepNode, run, fields);
  await rememberChainIndex(store, record.id, chain, [{ address: stepAddress, role: wait.role, details }]);
  const moved = applyThreadUpdate(record, update);
  if (fanOut !== undefined) await ensureBranches(moved, options);
  return { record: moved, routed: decision.role };
}

/** No `$timeout` edge (or one that could not be followed): the thread fails where it stands, its suspension still its head. */
async function failThread(
  store: Store,
  record: ThreadRecord,
  wait: SuspensionWait,
  at: string,
  cause: unknown,
): Promise<TimedOutSuspension | null> {
  const error = cause ?? new SuspendTimeoutError(record.id, wait.role, wait.after, wait.deadline);
  const { code, message } = describeFailure(error);
  const failure: ThreadFailure = { code, message, run: null, attempts: 1, failedAt: at };
  const update: ThreadUpdate = { status: "failed", failure, updatedAt: at };
  if (!(await store.refs.updateThread(record.id, record.head, update))) return null;
  return { record: applyThreadUpdate(record, update), routed: null };
}
