import { realpath } from "node:fs/promises";
import { type AnthropicAgentSpec, addUsage, type Config, messageOf, type Usage } from "@uwf/protocol";
import type { AgentLaunchResult, AgentRunContext } from "../agents/agent-launch-result.ts";
import { providerKeyVariables } from "../agents/child-environment.ts";
import { formatSeconds } from "../agents/format-seconds.ts";
import type { PreviousVisit } from "../agents/launch-agent.ts";
import { TailBuffer } from "../agents/tail-buffer.ts";
import { loadConfig } from "../config/load-config.ts";
import { callWithApiRetries } from "./call-with-api-retries.ts";
import { computeUsage } from "./compute-usage.ts";
import { createAnthropicClient, DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT_MS } from "./create-anthropic-client.ts";
import { describeApiError, summarizeApiError } from "./describe-api-error.ts";
import { CONTINUE_PROMPT, describeUnfinishedTurn, EMPTY_ANSWER_PROMPT, isAnswer } from "./describe-unfinished-turn.ts";
import { NoWorkingDirectoryError } from "./no-working-directory-error.ts";
import { planConversation } from "./plan-conversation.ts";
import { apiKeyHint, readApiKey } from "./read-api-key.ts";
import { requestModelTurn } from "./request-model-turn.ts";
import { type ModelSettings, resolveModelSettings } from "./resolve-model-settings.ts";
import { splitPrompt } from "./split-prompt.ts";
import { runAgentTool, toolDefinitions } from "./tools/agent-tools.ts";
import {
  appendUserText,
  type ContentBlock,
  type TranscriptMessage,
  textOf,
  toApiMessages,
  toSystemBlocks,
} from "./transcript.ts";

/** `timeoutMs` covers the whole loop (every request and tool call); `onStderr` gets a progress line per model turn and tool call. */
export interface RunAnthropicAgentOptions extends AgentRunContext {
  spec: AnthropicAgentSpec;
  alias: string;
  /** The role's previous visit: its transcript is continued. */
  previousVisit?: PreviousVisit;
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
  let usage: Usage | null = null;
  let transcript: TranscriptMessage[] = [];
  const result = (fields: Partial<AgentLaunchResult>): AgentLaunchResult => ({
    reply: "",
    exitCode: null,
    signal: null,
    timedOut: false,
    interrupted: false,
    stderrTail: log.toString(),
    error: null,
    startedAt: startedAt.toISOString(),
    completedAt: new Date().toISOString(),
    usage,
    sessionId: null,
    transcript: transcript.length === 0 ? null : transcript,
    command: null,
    ...fields,
  });

  let settings: ModelSettings;
  let apiKey: string;
  let workspace: string;
  let keyVariables: string[];
  try {
    const config = options.config ?? (await loadConfig(options.env.home));
    keyVariables = providerKeyVariables(config);
    settings = resolveModelSettings({
      config,
      model: options.spec.model,
      maxTokens: options.spec.maxTokens,
      maxTurns: options.spec.maxTurns,
    });
    const key = await readApiKey(settings.apiKeyEnv, options.env.home, options.environment);
    if (key === null) {
      return result({
        error: `no API key for provider "${settings.provider}": ${settings.apiKeyEnv} is not set; ${apiKeyHint(settings.apiKeyEnv)}`,
      });
    }
    apiKey = key.value;
    workspace = await realpath(options.cwd).catch(() => {
      throw new NoWorkingDirectoryError(options.cwd);
    });
  } catch (error) {
    return result({ error: messageOf(error) });
  }

  const deadline = options.timeoutMs > 0 ? startedAt.getTime() + options.timeoutMs : null;
  const timeout = new AbortController();
  const timer = deadline === null ? null : setTimeout(() => timeout.abort(), Math.min(options.timeoutMs, 2 ** 31 - 1));
  const signal = options.signal === undefined ? timeout.signal : AbortSignal.any([options.signal, timeout.signal]);
  const stopped = (): Partial<AgentLaunchResult> | null => {
    if (options.signal?.aborted) return { interrupted: true, error: "the agent was interrupted" };
    if (timeout.signal.aborted)
      return { timedOut: true, error: `the agent timed out after ${formatSeconds(options.timeoutMs)}` };
    return null;
  };

  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  note(`${settings.model} via ${settings.provider}`);
  // uwf counts and paces the retries itself (`callWithApiRetries`), mid-stream errors included.
  const { client, sdk } = await createAnthropicClient({
    apiKey,
    baseUrl: settings.baseUrl,
    maxRetries: 0,
    requestTimeoutMs:
      deadline === null ? DEFAULT_REQUEST_TIMEOUT_MS : Math.min(DEFAULT_REQUEST_TIMEOUT_MS, options.timeoutMs),
  });
  const tools = toolDefinitions();
  const toolContext = {
    workspace,
    env: options.env,
    signal,
    deadline,
    ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    // Tools run without the provider keys, and no tool result shows the key in use.
    keyVariables,
    passEnv: options.spec.passEnv ?? [],
    secretValues: [apiKey],
  };
  const warned = new Set<string>();
  const onWarning = (text: string) => {
    if (!warned.has(text)) note(`SDK warning: ${text.replace(/\s+/g, " ").trim()}`);
    warned.add(text);
  };
  const retrying =
    (what: string) =>
    (retry: { attempt: number; attempts: number; delayMs: number; error: unknown }): void => {
      note(
        `${what}: ${summarizeApiError(retry.error, sdk)} (attempt ${retry.attempt} of ${retry.attempts}); retrying in ${formatSeconds(retry.delayMs)}`,
      );
    };
  const failed = (error: unknown, attempts: number): AgentLaunchResult => {
    const stop = stopped();
    if (stop !== null) return result(stop);
    const description = describeApiError(error, sdk, settings, attempts);
    note(description.message);
    return result({ error: description.message });
  };

  try {
    const plan = await planConversation({
      previous: options.previousVisit?.transcript,
      prompt: splitPrompt(options.prompt, workspace),
      model: settings.model,
      contextWindow: settings.contextWindow,
      maxTokens: settings.maxTokens,
      note,
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
                tools,
              },
              { signal },
            ),
          { sdk, maxRetries, signal, onRetry: retrying("count_tokens") },
        );
        if (counted.success) return { tokens: counted.value.input_tokens };
        const summary = summarizeApiError(counted.error, sdk);
        return counted.error instanceof sdk.BadRequestError ? { refused: summary } : { unavailable: summary };
      },
    });
    const stop = stopped();
    if (stop !== null) return result(stop);
    if (!plan.success) {
      note(plan.problem);
      return result({ error: plan.problem });
    }
    transcript = plan.messages;
    // Text of turns cut off at max_tokens, which the following turns continue.
    let cutOff = "";
    for (let turn = 1; ; turn++) {
      const outcome = await requestModelTurn({
        client,
        sdk,
        model: settings.model,
        maxTokens: settings.maxTokens,
        system: plan.system,
        messages: transcript,
        // The end of the stored conversation and the newest message: each request reads the previous one from the cache.
        breakpoints: [...(plan.continued > 0 ? [plan.continued - 1] : []), transcript.length - 1],
        tools,
        signal,
        maxRetries,
        onRetry: retrying(`turn ${turn}`),
        onWarning,
      });
      if (!outcome.success) return failed(outcome.error, outcome.attempts);
      const message = outcome.value;
      const turnUsage = computeUsage(message.usage, settings.prices);
      usage = usage === null ? turnUsage : addUsage(usage, turnUsage);
      // An empty text block is refused when sent back, so it is not kept.
      const content = message.content
        .map((block) => ({ ...block }) as ContentBlock)
        .filter((block) => !(block.type === "text" && block.text === ""));
      const toolCalls = content.filter((block) => block.type === "tool_use");
      note(
        `turn ${turn}: ${message.stop_reason ?? "no stop reason"}, ${turnUsage.inputTokens} in / ${turnUsage.outputTokens} out` +
          (turnUsage.cacheReadTokens > 0 ? `, ${turnUsage.cacheReadTokens} read from the cache` : "") +
          (toolCalls.length === 0 ? "" : `, ${toolCalls.map((call) => String(call.name)).join(", ")}`),
      );
      if (content.length === 0 && isAnswer(message.stop_reason) && turn < settings.maxTurns) {
        // An empty answer cannot be sent back (the API refuses empty messages): it is left out, and the model asked again.
        note(`turn ${turn}: the model answered nothing; asking for the answer`);
        transcript = appendUserText(transcript, EMPTY_ANSWER_PROMPT);
        continue;
      }
      transcript.push({
        role: "assistant",
        content,
        model: message.model,
        stopReason: message.stop_reason,
        usage: turnUsage,
      });
      const unfinished = describeUnfinishedTurn(message, toolCalls.length > 0, settings.maxTokens);
      if (unfinished !== null) {
        note(unfinished);
        return result({ error: unfinished });
      }
      if (message.stop_reason === "max_tokens") {
        // Text only, cut off by the output limit: the model goes on where it stopped, in the next turn.
        if (turn >= settings.maxTurns) {
          return result({
            error: `the model's answer was cut off at max_tokens (${settings.maxTokens}) and maxTurns (${settings.maxTurns}) leaves no turn to finish it; raise maxTokens`,
          });
        }
        cutOff += textOf(content);
        transcript.push({ role: "user", content: [{ type: "text", text: CONTINUE_PROMPT }] });
        continue;
      }
      if (toolCalls.length === 0) return result({ reply: cutOff + textOf(content), exitCode: 0 });
      if (turn >= settings.maxTurns) {
        return result({
          error: `the agent reached maxTurns (${settings.maxTurns} model turns) without a final answer; raise maxTurns on the agent or the model in config.yaml`,
        });
      }
      const results: ContentBlock[] = [];
      for (const call of toolCalls) {
        const outcome = await runAgentTool(String(call.name), call.input, toolContext);
        note(`  ${String(call.name)}${outcome.isError ? " (error)" : ""}: ${firstLine(outcome.content)}`);
        results.push({
          type: "tool_result",
          tool_use_id: call.id,
          content: outcome.content,
          ...(outcome.isError ? { is_error: true } : {}),
        });
        const stop = stopped();
        if (stop !== null) return result(stop);
      }
      transcript.push({ role: "user", content: results });
    }
  } catch (error) {
    return failed(error, 1);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
