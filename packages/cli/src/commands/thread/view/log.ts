import {
  followThread,
  recordView,
  resolveThread,
  standingEvent,
  ThreadCancelledError,
  ThreadFailedError,
} from "@uwf/engine";
import { type AgentOutputResult, isUwfError, type LogResult, type StepResult, type StepSummary } from "@uwf/protocol";
import { StdoutClosedError } from "../../../errors/stdout-closed-error.ts";
import { UsageError } from "../../../errors/usage-error.ts";
import { EXIT_OK, EXIT_SUSPENDED } from "../../../exit-codes.ts";
import { formatLog } from "../../../format/thread/format-log.ts";
import { formatStepResult } from "../../../format/thread/format-step-result.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { stepFinishedEvent, toStepResult } from "../step/step-report.ts";
import { checkAgentOutputStep, readThreadAgentOutput, readThreadLog } from "./thread-view-reads.ts";

export interface LogCommandOptions {
  thread: string;
  /** Then print each step any process records, until the thread ends or suspends. */
  follow?: boolean;
  /** Text output: only the steps' addresses, oldest first, one a line (for `S=$(uwf log T --addresses | head -1)`). */
  addresses?: boolean;
  /** The live output the steps' agents printed as they ran (stored, capped per run), instead of the steps. */
  agentOutput?: boolean;
  /** With agentOutput: only this step's. */
  step?: number;
}

/** A thread's steps: `logResultSchema`; with `--follow`, `stepResultSchema`. */
export async function logCommand(
  options: LogCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<LogResult | StepResult | AgentOutputResult>> {
  if (options.step !== undefined && options.agentOutput !== true) {
    throw new UsageError("--step N names the step whose agent output to print: give it with --agent-output");
  }
  if (options.agentOutput === true) {
    checkAgentOutputStep(options.step);
    if (options.follow === true || options.addresses === true) {
      throw new UsageError("--agent-output prints what the steps printed: leave out --follow (use -v) and --addresses");
    }
    return agentOutputCommand(options, context);
  }
  if (options.follow === true) {
    if (options.addresses === true)
      throw new UsageError("--addresses prints the steps recorded so far: leave out --follow");
    return logFollowCommand(options, context);
  }
  const store = await context.openStore({ create: false });
  const result = await readThreadLog(store, options.thread);
  if (options.addresses === true) {
    return { result, format: (value) => (value as LogResult).steps.map((step) => step.address).join("\n") };
  }
  return { result, format: formatLogOrFollow };
}

/**
 * `log --follow`: the steps so far, then each new one as it is recorded, as `step --all` prints
 * them; done when the thread ends (exit 0), suspends (exit 20), fails or is cancelled (exit 1, with
 * the error), as `uwf wait` exits.
 */
async function logFollowCommand(
  options: LogCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<LogResult | StepResult>> {
  const store = await context.openStore({ create: false });
  let record = await resolveThread(store.refs, options.thread);
  const steps: StepSummary[] = [];
  let failure: unknown;
  try {
    record = await followThread({
      store,
      record,
      signal: context.signal,
      // -v: what the running steps' agents print, as `uwf step -v` shows its own agent's (stderr).
      ...(context.verbose
        ? {
            onOutput: (chunks: { text: string }[]) => {
              for (const chunk of chunks) context.agentStderr(chunk.text);
            },
          }
        : {}),
      onSteps: async (fresh, current) => {
        record = current;
        for (const step of fresh) {
          steps.push(step);
          await context.emit(stepFinishedEvent(record.id, step));
        }
      },
    });
    const standing = standingEvent(record);
    if (standing !== null) await context.emit(standing);
    if (record.status === "cancelled") failure = new ThreadCancelledError(record.id);
    if (record.status === "failed") failure = new ThreadFailedError(record);
  } catch (error) {
    // A reader that went away gets nothing more.
    if (isUwfError(error) && error.code === StdoutClosedError.code) throw error;
    failure = error;
  }
  return {
    result: await toStepResult(recordView(record), steps, failure),
    format: formatLogOrFollow,
    exitCode: record.status === "suspended" ? EXIT_SUSPENDED : EXIT_OK,
    streamed: true,
    error: failure,
  };
}

/** `log --agent-output`: the stored live output of the thread's steps, or of one step. */
async function agentOutputCommand(
  options: LogCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<AgentOutputResult>> {
  const store = await context.openStore({ create: false });
  const result = await readThreadAgentOutput(store, options.thread, options.step);
  return { result, format: (value) => (value as AgentOutputResult).chunks.map((chunk) => chunk.text).join("") };
}

function formatLogOrFollow(result: LogResult | StepResult, color: boolean): string {
  return "status" in result ? formatStepResult(result, color) : formatLog(result, color);
}
