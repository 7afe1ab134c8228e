import type { Store } from "@uwf/cas";
import {
  type Address,
  type AnswerNode,
  addUsage,
  END,
  type FanOutNode,
  parseDuration,
  type StepSummary,
  suspensionDeadline,
  type ThreadRecord,
  type ThreadStepNode,
  type Usage,
  ZERO_USAGE,
} from "@uwf/protocol";
import { branchOutcome } from "../branches/branch-steps.ts";
import { crashPoint } from "../branches/crash-point.ts";
import { AgentFailedError } from "../errors/agent-failed-error.ts";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { InterruptedError } from "../errors/interrupted-error.ts";
import { chainStepDetailsOf } from "../history/chain-step-details-of.ts";
import type { HistoryStep } from "../history/history-step.ts";
import { toStepSummary } from "../history/load-step-summaries.ts";
import { rememberChainIndex } from "../history/remember-chain-index.ts";
import type { HeldLease } from "../lease/with-thread-lease.ts";
import { outcomeOf } from "../routing/outcome-of.ts";
import { indexThreadWords, stepSearchTexts } from "../search/index-thread-words.ts";
import { applyThreadUpdate } from "../thread/apply-thread-update.ts";
import { buildAgentRunNode } from "./build-agent-run-node.ts";
import type { PlannedStep } from "./choose-step.ts";
import type { StepState } from "./load-step-state.ts";
import { NodeBatch } from "./node-batch.ts";
import type { StepRun } from "./run-step-agent.ts";
import { isTimeoutSuspension } from "./suspend-on-timeout.ts";

export interface CommitStepOptions {
  store: Store;
  now(): Date;
  /** The command's signal: its reason names the signal that interrupted the agent. */
  signal: AbortSignal;
  /** Called as each phase of the step ends, with its name (`UWF_TRACE` in the CLI); for finding where time goes. */
  trace?(phase: string): void;
}

/**
 * The step's last phase: writes the agent's run, and for an accepted reply the step node, then
 * compare-and-swaps the head (the record `ended` or `suspended` in the same update when the reply
 * says so). A run that failed is kept, its usage counted, and the head left where it was.
 * A run that timed out for a role with `onTimeout: suspend` is a step: the role's suspension.
 */
export async function commitStep(
  state: StepState,
  planned: PlannedStep,
  { startedAt, run }: StepRun,
  lease: HeldLease,
  options: CommitStepOptions,
): Promise<{ record: ThreadRecord; step: StepSummary }> {
  const { store } = options;
  const { record, chain, history } = state;
  const { roleName, agent, prompt, edgePrompt, number } = planned;
  const threadId = record.id;
  const batch = new NodeBatch();
  const runAddress = buildAgentRunNode({
    batch,
    alias: agent.alias,
    kind: agentKind(agent.spec),
    cwd: chain.start.cwd,
    prompt,
    storedPrompt: planned.storedPrompt,
    run,
    thread: threadId,
  });
  // A run out of time for a role with `onTimeout: suspend` is committed as the role's suspension.
  const accepted = run.outcome === "ok" || isTimeoutSuspension(run);
  if (!accepted || run.fields === null || run.body === null || run.route === null) {
    await batch.write(store.objects);
    await countFailedRun(store, record, run.usage, options.now());
    if (run.outcome === "interrupted")
      throw new InterruptedError(String(options.signal.reason ?? "SIGINT"), runAddress);
    const retriedByRole = state.workflow.roles[roleName]?.retries !== undefined;
    throw new AgentFailedError(threadId, roleName, run.error ?? run.outcome, runAddress, { retriedByRole });
  }
  const { decision, completedAt } = run.route;
  const last = history.steps.at(-1);
  const stepNode: ThreadStepNode = {
    type: "thread-step/1",
    start: chain.startAddress,
    prev: last === undefined ? null : (last.address as Address),
    role: roleName,
    edgePrompt,
    output: batch.add({ type: "output/1", fields: run.fields }),
    body: batch.addText(run.body),
    run: runAddress,
    startedAt: startedAt.toISOString(),
    completedAt: completedAt.toISOString(),
  };
  const fanOut = decision?.fanOut;
  if (fanOut !== undefined) stepNode.fanOut = batch.add({ type: "fan-out/1", ...fanOut } satisfies FanOutNode);
  if (planned.join !== null) stepNode.joined = batch.add(planned.join.node);
  if (planned.answer !== null)
    stepNode.answer = batch.add({ type: "answer/1", fields: planned.answer } satisfies AnswerNode);
  const stepAddress = batch.add(stepNode);
  // Known before the node exists: a crash from here until the head moves leaves a crashed step's node.
  await lease.recordHead(stepAddress);
  await batch.write(store.objects);
  crashPoint("after-step-nodes");

  const newStep: HistoryStep = {
    number,
    address: stepAddress,
    role: roleName,
    agent: agent.alias,
    output: run.fields,
    body: run.body,
    edgePrompt,
    startedAt: stepNode.startedAt,
    completedAt: stepNode.completedAt,
    run: runAddress,
    usage: run.usage,
    ...(planned.answer === null ? {} : { answer: planned.answer }),
  };
  options.trace?.("nodes written");
  const ended = decision !== null && decision.role === END;
  const ownUsage = run.usage === null ? record.usage : addUsage(record.usage, run.usage);
  const update = {
    head: stepAddress,
    // A reply that fans out leaves the thread waiting for its branches; the join role comes after them.
    status: decision === null ? "suspended" : ended ? "ended" : fanOut !== undefined ? "waiting" : "active",
    next: decision === null ? roleName : decision.role,
    reason: decision === null ? String(run.fields.reason ?? "") : null,
    // A suspension with a wait: the ref store indexes when it runs out, for due work to find.
    ...deadlineOf(decision === null ? state.workflow.roles[roleName]?.suspendTimeout : undefined, stepNode),
    stepCount: number,
    updatedAt: completedAt.toISOString(),
    // A late answer to a suspension whose wait ran out (`suspend-timeout`) lifts that failure.
    ...(state.mode === "answer-suspended" && record.failure !== undefined ? { failure: null } : {}),
    // A join adds what its branches spent to the parent's totals.
    usage: planned.join === null ? ownUsage : addUsage(ownUsage, planned.join.usage),
    // A resumed ended thread that goes on has no outcome until it ends again.
    ...(ended
      ? {
          outcome: planned.endsBranch
            ? branchOutcome(roleName, run.fields)
            : outcomeOf(state.workflow, decision, run.fields),
        }
      : record.outcome === undefined
        ? {}
        : { outcome: null }),
  } as const;
  const searchTexts = stepSearchTexts(roleName, run.fields);
  const details = chainStepDetailsOf(stepNode, { agent: agent.alias, usage: run.usage }, run.fields);
  lease.assertHeld();
  // The head, then what is derived from it (the chain index, the search words), committed together:
  // one transaction on SQLite, where a failed derived write is only left out (see each).
  await writeTogether(store.refs, async () => {
    if (!(await store.refs.updateThread(threadId, record.head, update)))
      throw new HeadConflictError(threadId, record.head, stepAddress);
    options.trace?.("head moved");
    await rememberChainIndex(store, threadId, chain, [{ address: stepAddress, role: roleName, details }]);
    options.trace?.("chain index kept");
    await indexThreadWords(store, threadId, searchTexts);
  });
  return { record: applyThreadUpdate(record, update), step: toStepSummary(newStep) };
}

/**
 * A run that does not become a step was still paid for: its usage goes into the thread's totals,
 * and into `failedUsage` to show it apart, so a budget sees every cent. The head stays where it was.
 */
async function countFailedRun(store: Store, record: ThreadRecord, usage: Usage | null, now: Date): Promise<void> {
  if (usage === null) return;
  const update = {
    usage: addUsage(record.usage, usage),
    failedUsage: addUsage(record.failedUsage ?? ZERO_USAGE, usage),
    updatedAt: now.toISOString(),
  };
  // Under the step's lease the head cannot have moved; if it did, the other stepper's record stands.
  await store.refs.updateThread(record.id, record.head, update);
}

/** `{ deadline }` of a suspension by a role that waits `suspendTimeout`; nothing for any other step. */
function deadlineOf(suspendTimeout: string | undefined, step: ThreadStepNode): { deadline?: string } {
  if (suspendTimeout === undefined) return {};
  const deadline = suspensionDeadline(step.completedAt, parseDuration(suspendTimeout));
  return deadline === null ? {} : { deadline };
}

/** `work`'s ref writes committed together where the store can (RefStore.writeTogether), else as they come. */
function writeTogether(refs: Store["refs"], work: () => Promise<void>): Promise<void> {
  return refs.writeTogether === undefined ? work() : refs.writeTogether(work);
}

function agentKind(spec: object): string {
  if ("builtin" in spec) return String(spec.builtin);
  if ("preset" in spec) return String(spec.preset);
  return "command";
}
