import type { StepResult, StepSummary, ThreadRecord } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { resolveThread } from "../../engine/resolve-thread.ts";
import { stepThread } from "../../engine/step-thread.ts";
import { EXIT_OK, EXIT_SUSPENDED } from "../../exit-codes.ts";
import { formatStepResult } from "../../format/format-step-result.ts";
import { trace } from "../../trace.ts";
import { resolveAgentFlag } from "./resolve-agent-flag.ts";

export interface StepCommandOptions {
  thread: string;
  steps?: number;
  all?: boolean;
  agent?: string;
  timeout?: number;
  /** Set by `resume` for its first step. */
  resumeAnswer?: string;
}

/** Runs up to N steps; stops early when the thread ends or suspends. */
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
  for (let index = 0; index < limit; index++) {
    const outcome = await stepThread({
      store,
      config,
      home: context.home,
      threadId: record.id,
      agentFlag,
      timeoutSeconds: options.timeout,
      resumeAnswer: index === 0 ? options.resumeAnswer : undefined,
      signal: context.signal,
      host: context.host,
      now: context.now,
      onProgress: context.progress,
      onStderr: context.agentStderr,
      onWarning: (message) => {
        // The spinner goes first, so the warning gets its own line; the agent's next turn brings it back.
        context.progress(null);
        context.warn(message);
      },
    });
    record = outcome.record;
    if (outcome.kind === "ended") break;
    steps.push(outcome.step);
    if (record.status !== "active") break;
  }
  const result: StepResult = { thread: record.id, head: record.head, status: record.status, next: record.next, steps };
  return {
    result,
    format: (value: StepResult, color: boolean) => formatStepResult(value, color),
    exitCode: record.status === "suspended" ? EXIT_SUSPENDED : EXIT_OK,
  };
}
