import {
  BudgetExceededError,
  resolveThread,
  type StepStart,
  type StepThreadOutcome,
  stepThread,
  ThreadEndedError,
  ThreadSuspendedError,
} from "@uwf/engine";
import { type BudgetLimits, isUwfError, type StepSummary, type ThreadRecord } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { StdoutClosedError } from "../../errors/stdout-closed-error.ts";
import { EXIT_OK, EXIT_SUSPENDED } from "../../exit-codes.ts";
import { formatStepResult } from "../../format/format-step-result.ts";
import { trace } from "../../trace.ts";
import { resolveAgentFlag } from "./resolve-agent-flag.ts";
import { standingEvent, stepFailedEvent, stepFinishedEvent, stepStartedEvent, toStepResult } from "./step-report.ts";

/** The errors of a step refused because of where the thread stands. */
const REFUSALS: ReadonlySet<string> = new Set([
  ThreadEndedError.code,
  ThreadSuspendedError.code,
  BudgetExceededError.code,
]);

export interface StepCommandOptions {
  thread: string;
  steps?: number;
  all?: boolean;
  agent?: string;
  timeout?: number;
  /** Set by `resume` for its first step. */
  resumeAnswer?: string;
  /** Set by `resume --max-…` for its first step. */
  resumeLimits?: Partial<BudgetLimits>;
}

/**
 * Runs up to N steps; stops early when the thread ends or suspends (by a role, or for its budget). Each step is emitted as it
 * starts and as it is recorded, so its line is printed then. A step that fails ends the command with
 * the steps recorded before it still in the result, beside the error.
 */
export async function stepCommand(options: StepCommandOptions, context: CommandContext) {
  trace("step command loaded");
  const store = await context.openStore();
  trace("store open");
  const config = await context.loadConfig();
  trace("config loaded");
  let record: ThreadRecord = await resolveThread(store.refs, options.thread);
  const limit = options.all === true ? Number.POSITIVE_INFINITY : (options.steps ?? 1);
  const agentFlag = resolveAgentFlag(options.agent, context.cwd);
  const steps: StepSummary[] = [];
  let failure: unknown;
  for (let index = 0; index < limit; index++) {
    let started: StepStart | null = null;
    let outcome: StepThreadOutcome;
    try {
      outcome = await stepThread({
        store,
        config,
        home: context.home,
        threadId: record.id,
        agentFlag,
        timeoutSeconds: options.timeout,
        resumeAnswer: index === 0 ? options.resumeAnswer : undefined,
        resumeLimits: index === 0 ? options.resumeLimits : undefined,
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
        onStarted: (step) => {
          started = step;
          return context.emit(stepStartedEvent(record.id, step));
        },
      });
    } catch (error) {
      // A reader that went away gets nothing more, not a report of the failure.
      if (isUwfError(error) && error.code === StdoutClosedError.code) throw error;
      failure = error;
      // Stepping a thread that has ended or is suspended is refused (exit 10, 20): it reports where the thread stands.
      const refused = isUwfError(error) && REFUSALS.has(error.code);
      if (refused) record = (await store.refs.getThread(record.id)) ?? record;
      await context.emit((refused ? standingEvent(record) : null) ?? (await stepFailedEvent(record, started, error)));
      break;
    }
    record = outcome.record;
    if (outcome.kind !== "stepped") break;
    steps.push(outcome.step);
    await context.emit(stepFinishedEvent(record.id, outcome.step));
    if (record.status !== "active") break;
  }
  const standing = failure === undefined ? standingEvent(record) : null;
  if (standing !== null) await context.emit(standing);
  return {
    result: await toStepResult(record, steps, failure),
    format: formatStepResult,
    exitCode: record.status === "suspended" ? EXIT_SUSPENDED : EXIT_OK,
    streamed: true,
    error: failure,
  };
}
