import type { AgentLaunchResult } from "../process/agent-launch-result.ts";
import { buildLaunchResult } from "../process/build-launch-result.ts";
import { TailBuffer } from "../process/tail-buffer.ts";
import { describeApiError } from "./describe-api-error.ts";
import { type ConversationPlan, planConversation } from "./plan-conversation.ts";
import { runToolRound } from "./run-tool-round.ts";
import { setUpToolLoopRun, type ToolLoopApi, type ToolLoopOptions } from "./set-up-tool-loop-run.ts";
import { splitPrompt } from "./split-prompt.ts";
import { takeModelTurn } from "./take-model-turn.ts";
import type { ToolLoopRun } from "./tool-loop-run.ts";

/**
 * The tool-use loop every built-in model agent runs, whatever its API (`api` adapts one: see
 * `ModelProvider`). The role part of the prompt is the system prompt and the rest the user message
 * (see `splitPrompt`); on a later visit the stored transcript is sent first when it is well formed and
 * fits (`planConversation`), else a fresh conversation starts and the log says why. Each turn the model
 * may call the file and shell tools (and its MCP servers'), confined to the thread's cwd; its first turn
 * without tool calls is the final answer, whose text is the reply. An answer cut off at max_tokens is
 * continued in the next turn; a cut-off tool call, a refusal or more than `maxTurns` model turns is a
 * failed launch. Failures are data: a missing or refused key, an API error after the bounded retries
 * (`callWithApiRetries`), a request over the context window, a timeout or an interrupt all give a
 * result with `error` set, and whatever transcript and usage there was.
 */
export async function runToolLoop(options: ToolLoopOptions, api: ToolLoopApi): Promise<AgentLaunchResult> {
  const startedAt = new Date();
  const log = new TailBuffer(4_096);
  const note = (line: string) => {
    log.append(`${line}\n`);
    options.onStderr?.(`${line}\n`);
  };
  const setUp = await setUpToolLoopRun(options, api, startedAt, note);
  let continued = false;
  const finish = (fields: Partial<AgentLaunchResult>): AgentLaunchResult => {
    const transcript = setUp.success ? setUp.run.transcript : [];
    return buildLaunchResult(startedAt, {
      stderrTail: log.toString(),
      ...(continued ? { continued } : {}),
      usage: setUp.success ? setUp.run.usage : null,
      transcript: transcript.length === 0 ? null : transcript,
      ...fields,
    });
  };
  if (!setUp.success) return finish({ error: setUp.error, ...setUp.stop });
  const { run } = setUp;
  const failed = (error: unknown, attempts: number): AgentLaunchResult => {
    const stop = run.stopped();
    if (stop !== null) return finish(stop);
    const overflow = run.provider.describeOverflow(error);
    const message =
      overflow === null
        ? describeApiError(error, run.provider.errors, run.settings, attempts).message
        : `the request is over ${run.settings.model}'s context window: ${overflow}; uwf assumes ${run.settings.contextWindow} tokens for it (set models.NAME.contextWindow in config.yaml to the server's real window, so a long conversation starts afresh instead)`;
    note(message);
    return finish({ error: message });
  };

  try {
    const plan = await planRunConversation(run, options);
    const stop = run.stopped();
    if (stop !== null) return finish(stop);
    if (!plan.success) {
      note(plan.problem);
      return finish({ error: plan.problem });
    }
    run.transcript = plan.messages;
    continued = plan.continued > 0;
    for (let turn = 1; ; turn++) {
      const outcome = await takeModelTurn(run, turn, plan);
      if (outcome.kind === "request-failed") return failed(outcome.error, outcome.attempts);
      if (outcome.kind === "ended") return finish(outcome.fields);
      if (outcome.kind === "again") continue;
      const stopped = await runToolRound(run, outcome.calls);
      if (stopped !== null) return finish(stopped);
    }
  } catch (error) {
    return failed(error, 1);
  } finally {
    await run.dispose();
  }
}

/** Whether the role's stored conversation is continued or a fresh one starts (see `planConversation`). */
function planRunConversation(run: ToolLoopRun, options: ToolLoopOptions): Promise<ConversationPlan> {
  const { settings, signal } = run;
  return planConversation({
    previous: options.previousVisit?.transcript,
    prompt: splitPrompt(options.prompt, run.toolContext.workspace),
    ...(options.continuationPrompt === undefined
      ? {}
      : { continuation: splitPrompt(options.continuationPrompt, run.toolContext.workspace) }),
    model: settings.model,
    contextWindow: settings.contextWindow,
    maxTokens: settings.maxTokens,
    note: run.note,
    countTokens: (system, messages) =>
      run.provider.countTokens(
        { system, messages, tools: run.agentTools, signal },
        { maxRetries: run.maxRetries, signal, onRetry: run.onRetry("count_tokens") },
      ),
  });
}
