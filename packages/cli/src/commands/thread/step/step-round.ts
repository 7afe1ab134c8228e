import type { Store } from "@uwf/cas";
import {
  type Resume,
  resolveThread,
  type StepUntilDoneOptions,
  type StepUntilDoneResult,
  standingEvent,
  type ThreadView,
} from "@uwf/engine";
import type { BudgetLimits, CliEvent, StepResult } from "@uwf/protocol";
import { EXIT_OK, EXIT_SUSPENDED } from "../../../exit-codes.ts";
import { describeSuspension, formatStepResult } from "../../../format/thread/format-step-result.ts";
import { resumeLine } from "../../../format/thread/format-suspension.ts";
import { loadConfigForAgents } from "../../../home/load-config-for-agents.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { trace } from "../../../trace.ts";
import { checkAgentFlag } from "./check-agent-flag.ts";
import { resolveAgentFlag } from "./resolve-agent-flag.ts";
import { stepFailedEvent, stepFinishedEvent, stepStartedEvent, toStepResult } from "./step-report.ts";

export interface StepCommandOptions {
  thread: string;
  steps?: number;
  all?: boolean;
  agent?: string;
  timeout?: number;
  /** Set by `resume` for its first step. */
  resumeAnswer?: string;
  /** Set by `resume --answer` for its first step: the answer's YAML or JSON text. */
  resumeTypedAnswer?: string;
  /** Set by `resume --max-…` for its first step. */
  resumeLimits?: Partial<BudgetLimits>;
  /** Set by `resume` of a failed thread, which takes neither: its first step tries the failed one again. */
  resumeFailed?: boolean;
  /** `--parallel K`: a parent waiting for its branches steps K of them at once (default DEFAULT_BRANCH_PARALLEL). */
  parallel?: number;
}

/** What the engine's step loops (stepUntilDone, runThreadToEnd) are given by `step`, `resume` and `run`, the step count aside. */
export type StepRoundOptions = Omit<StepUntilDoneOptions, "maxSteps">;

/**
 * The thread `options.thread` names, checked for stepping as `uwf step` checks it (the store, the config, the
 * `--agent`), and the options that step it: its agent, time limit, resume, the view its report shows, and
 * callbacks that emit each step as it starts and as it is recorded. `roundThread` says which thread a round
 * steps (`uwf run` resumes a branch with its recorded answer: that round is the branch's own).
 */
export async function prepareStepRound(
  options: StepCommandOptions,
  context: CommandContext,
  roundThread?: () => string,
): Promise<{ id: string; store: Store; step: StepRoundOptions; flushHeld(): Promise<void> }> {
  trace("step command loaded");
  const store = await context.openStore();
  trace("store open");
  const config = await loadConfigForAgents(context);
  trace("config loaded");
  checkAgentFlag(options.agent, config);
  const { id } = await resolveThread(store.refs, options.thread);
  const ownThread = roundThread ?? (() => id);
  const { resumeAnswer, resumeLimits, resumeTypedAnswer } = options;
  const resume: Resume | undefined =
    resumeAnswer === undefined &&
    resumeTypedAnswer === undefined &&
    resumeLimits === undefined &&
    options.resumeFailed !== true
      ? undefined
      : {
          answer: resumeAnswer,
          limits: resumeLimits,
          ...(resumeTypedAnswer === undefined ? {} : { typedAnswer: resumeTypedAnswer }),
        };
  // Reported in the order they make sense to a reader: a fan-out after the step that fanned out (the engine
  // makes the branches before that step is reported), a join after the branch steps that led to it (the
  // engine settles the parent before it reports the branch steps). Each is held until then, or until the
  // next step starts.
  const heldFanOuts: CliEvent[] = [];
  const heldJoins: CliEvent[] = [];
  const emitHeld = async (held: CliEvent[]) => {
    for (const event of held.splice(0)) await context.emit(event);
  };
  const emitAllHeld = async () => {
    await emitHeld(heldFanOuts);
    await emitHeld(heldJoins);
  };
  const onStepFinished: StepRoundOptions["onStepFinished"] = async (step, record) => {
    await context.emit(stepFinishedEvent(record.id, step));
    await emitAllHeld();
  };
  const step: StepRoundOptions = {
    store,
    config,
    home: context.home,
    threadId: id,
    defaultAgent: resolveAgentFlag(options.agent, context.cwd),
    timeoutSeconds: options.timeout,
    ...(options.parallel === undefined ? {} : { parallel: options.parallel }),
    resume,
    // What the result shows of the thread once stepped: a role's question, a waiting parent's pending branches.
    view: { suspension: true, waitingFor: true },
    signal: context.signal,
    host: context.host,
    now: context.now,
    trace,
    onProgress: context.progress,
    onStderr: context.agentStderr,
    onWarning: (message) => {
      // The spinner goes first, so the warning gets its own line; the agent's next turn brings it back.
      context.progress(null);
      context.warn(message);
    },
    onStarted: async (started) => {
      await emitAllHeld();
      await context.emit(stepStartedEvent(started));
    },
    onBranchesStarted: (event) => {
      heldFanOuts.push({ type: "branches-started", ...event });
    },
    onBranchesJoined: (event) => {
      heldJoins.push({ type: "branches-joined", ...event });
    },
    onStepFinished,
    // A waiting parent's step runs its branches' steps: each is reported as its branch's, its line after the
    // branch's id; a branch a round resumes is that round's own thread.
    onBranchStepFinished: async (step, branch) => {
      if (branch.id === ownThread()) return onStepFinished(step, branch);
      await emitHeld(heldFanOuts);
      await context.emit(stepFinishedEvent(branch.id, step), { showThread: true });
    },
    onBranchStepFailed: async (thread, failure) => {
      await emitHeld(heldFanOuts);
      const branch = await store.refs.getThread(thread);
      if (branch !== null) await context.emit(await stepFailedEvent(branch, null, failure), { showThread: true });
    },
  };
  return { id, store, step, flushHeld: emitAllHeld };
}

/**
 * Reports a round of steps as `uwf step` does once its steps are done: the events held back, where the
 * thread stands (or the step that failed), its result (loaded with the round's view), and on stderr what to
 * do next (the question a role or a branch waits on, that a failed step can be tried again).
 */
export async function reportStepRound(
  done: StepUntilDoneResult,
  context: CommandContext,
  flushHeld: () => Promise<void>,
): Promise<CommandOutcome<StepResult>> {
  await flushHeld();
  const { record, steps, error } = done;
  const { id } = record;
  // Stepping a thread that has ended or is suspended is refused (exit 10, 20): it reports where the thread stands.
  if (error !== undefined) {
    await context.emit(
      (done.refused ? standingEvent(record) : null) ?? (await stepFailedEvent(record, done.failedStep, error)),
    );
  } else {
    const standing = standingEvent(record);
    if (standing !== null) await context.emit(standing);
  }
  const view = done.view as ThreadView;
  const result = await toStepResult(view, steps, error);
  // A parent whose every pending branch waits for an answer waits for you, as a suspended thread does.
  const waitsForAnswers =
    result.waitingFor !== undefined &&
    result.waitingFor.pending > 0 &&
    result.waitingFor.suspended?.length === result.waitingFor.pending;
  if (waitsForAnswers) {
    for (const branch of result.waitingFor?.suspended ?? []) {
      context.note(
        `branch ${branch.key} (${branch.thread}) asks: ${branch.reason} — answer with \`${resumeLine(branch.thread, view.waitingFor?.answerSchemas.get(branch.thread) ?? null)}\``,
      );
    }
  }
  // What to do next goes to stderr, where a script does not read it: the answer a role waits for, or that a failed step can be tried again.
  const asks = describeSuspension(result);
  if (asks !== null) context.note(asks);
  // A suspension whose wait ran out (suspend-timeout) takes no retry, only a late answer, which the error's hint names.
  if (record.status === "failed" && error !== undefined && record.failure?.code !== "suspend-timeout")
    context.note(`thread ${id} failed: \`uwf step ${id}\` tries its step again`);
  return {
    result,
    format: formatStepResult,
    exitCode: record.status === "suspended" || waitsForAnswers ? EXIT_SUSPENDED : EXIT_OK,
    streamed: true,
    error,
  };
}
