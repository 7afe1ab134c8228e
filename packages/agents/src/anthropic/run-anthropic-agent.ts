import type { AnthropicAgentSpec, Config } from "@uwf/protocol";
import type { PreviousVisit } from "../launch/launch-agent.ts";
import type { AgentLaunchResult, AgentRunContext } from "../process/agent-launch-result.ts";
import { buildLaunchResult } from "../process/build-launch-result.ts";
import { TailBuffer } from "../process/tail-buffer.ts";
import type { AnthropicRun } from "./anthropic-run.ts";
import { callWithApiRetries } from "./call-with-api-retries.ts";
import { describeApiError, summarizeApiError } from "./describe-api-error.ts";
import { type ConversationPlan, planConversation } from "./plan-conversation.ts";
import { runToolRound } from "./run-tool-round.ts";
import { setUpAnthropicRun } from "./set-up-anthropic-run.ts";
import { splitPrompt } from "./split-prompt.ts";
import { takeModelTurn } from "./take-model-turn.ts";
import { toApiMessages, toSystemBlocks } from "./transcript.ts";

/** `timeoutMs` covers the whole loop (every request and tool call); `onStderr` gets a progress line per model turn and tool call. */
export interface RunAnthropicAgentOptions extends AgentRunContext {
  spec: AnthropicAgentSpec;
  alias: string;
  /** The role's previous visit: its transcript is continued. */
  previousVisit?: PreviousVisit;
  /** Sent instead of `prompt` when that transcript is continued (see `LaunchAgentOptions.continuationPrompt`). */
  continuationPrompt?: string;
  /** config.yaml; read from `env.home` when not given. */
  config?: Config;
  /** Where the API key variable is looked up first. Default: `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Retries of one request on connection errors, 408/409/429/5xx/529 and errors mid-stream. Default 4. */
  maxRetries?: number;
}

/**
 * The built-in `anthropic` agent: a tool-use loop on the Messages API. The role
 * part of the prompt is the system prompt (with the tools, the cached prefix of
 * every request) and the rest the user message (see `splitPrompt`); on a later
 * visit the stored transcript is sent first when it is well formed and fits
 * (`planConversation`), else a fresh conversation starts and the log says why.
 * Each turn the model may call the file and shell tools, confined to the
 * thread's cwd; its first turn without tool calls is the final answer, whose
 * text is the reply. An answer cut off at max_tokens is continued in the next
 * turn; a cut-off tool call, a refusal or more than `maxTurns` model turns is a
 * failed launch. Failures are data: a missing or refused key, an API error
 * after the bounded retries (`callWithApiRetries`), a timeout or an interrupt
 * all give a result with `error` set, and whatever transcript and usage there was.
 */
export async function runAnthropicAgent(options: RunAnthropicAgentOptions): Promise<AgentLaunchResult> {
  const startedAt = new Date();
  const log = new TailBuffer(4_096);
  const note = (line: string) => {
    log.append(`${line}\n`);
    options.onStderr?.(`${line}\n`);
  };
  const setUp = await setUpAnthropicRun(options, startedAt, note);
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
    const description = describeApiError(error, run.sdk, run.settings, attempts);
    note(description.message);
    return finish({ error: description.message });
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
function planRunConversation(run: AnthropicRun, options: RunAnthropicAgentOptions): Promise<ConversationPlan> {
  const { client, sdk, settings, signal } = run;
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
    countTokens: async (system, messages) => {
      const counted = await callWithApiRetries(
        () =>
          client.messages.countTokens(
            {
              model: settings.model,
              system: toSystemBlocks(system),
              messages: toApiMessages(messages, []) as unknown as Parameters<
                typeof client.messages.countTokens
              >[0]["messages"],
              tools: run.tools,
            },
            { signal },
          ),
        { sdk, maxRetries: run.maxRetries, signal, onRetry: run.onRetry("count_tokens") },
      );
      if (counted.success) return { tokens: counted.value.input_tokens };
      const summary = summarizeApiError(counted.error, sdk);
      return counted.error instanceof sdk.BadRequestError ? { refused: summary } : { unavailable: summary };
    },
  });
}
