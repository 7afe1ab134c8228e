import { realpath } from "node:fs/promises";
import { type AnthropicAgentSpec, addUsage, type Config, type Usage, UwfError } from "@uwf/protocol";
import type { AgentLaunchResult, AgentRunContext } from "../agents/agent-launch-result.ts";
import type { PreviousVisit } from "../agents/launch-agent.ts";
import { TailBuffer } from "../agents/tail-buffer.ts";
import { loadConfig } from "../config/load-config.ts";
import { computeUsage } from "./compute-usage.ts";
import { createAnthropicClient, DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT_MS } from "./create-anthropic-client.ts";
import { describeApiError } from "./describe-api-error.ts";
import { apiKeyHint, readApiKey } from "./read-api-key.ts";
import { type ModelSettings, resolveModelSettings } from "./resolve-model-settings.ts";
import { splitPrompt } from "./split-prompt.ts";
import { runAgentTool, toolDefinitions } from "./tools/agent-tools.ts";
import { type ContentBlock, continueTranscript, type TranscriptMessage, textOf, toApiMessages } from "./transcript.ts";

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
  /** Retries of one request on 429/5xx/529. Default 4. */
  maxRetries?: number;
}

/**
 * The built-in `anthropic` agent: a tool-use loop on the Messages API. The role
 * part of the prompt is the system prompt and the rest the user message (see
 * `splitPrompt`); on a later visit the stored transcript is sent first. Each
 * turn the model may call the file and shell tools, confined to the thread's
 * cwd; its first turn without tool calls is the final answer, whose text is the
 * reply. More than `maxTurns` model turns is a failed launch. Failures are data:
 * a missing or refused key, an API error after the SDK's bounded retries, a
 * timeout or an interrupt all give a result with `error` set, and whatever
 * transcript and usage there was.
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
  try {
    const config = options.config ?? (await loadConfig(options.env.home));
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
      throw new UwfError("no-working-directory", `the working directory ${options.cwd} does not exist`);
    });
  } catch (error) {
    return result({ error: error instanceof Error ? error.message : String(error) });
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
  const { system, user } = splitPrompt(options.prompt, workspace);
  transcript = continueTranscript(options.previousVisit?.transcript, user);
  const continued = transcript.length > 1;
  note(
    `${settings.model} via ${settings.provider}${continued ? `, continuing ${transcript.length - 1} earlier messages` : ""}`,
  );
  const { client, sdk } = await createAnthropicClient({
    apiKey,
    baseUrl: settings.baseUrl,
    maxRetries,
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
  };

  try {
    for (let turn = 1; ; turn++) {
      const stream = client.messages.stream(
        {
          model: settings.model,
          max_tokens: settings.maxTokens,
          system: [{ type: "text", text: system, cache_control: { type: "ephemeral" } }],
          // The transcript holds API content blocks as they came; the SDK's param types are narrower than that.
          messages: toApiMessages(transcript) as unknown as Parameters<typeof client.messages.stream>[0]["messages"],
          tools,
        },
        { signal },
      );
      const message = await stream.finalMessage();
      const turnUsage = computeUsage(message.usage, settings.prices);
      usage = usage === null ? turnUsage : addUsage(usage, turnUsage);
      const content = message.content.map((block) => ({ ...block }) as ContentBlock);
      transcript.push({
        role: "assistant",
        content,
        model: message.model,
        stopReason: message.stop_reason,
        usage: turnUsage,
      });
      const toolCalls = content.filter((block) => block.type === "tool_use");
      note(
        `turn ${turn}: ${message.stop_reason ?? "no stop reason"}, ${turnUsage.inputTokens} in / ${turnUsage.outputTokens} out` +
          (toolCalls.length === 0 ? "" : `, ${toolCalls.map((call) => String(call.name)).join(", ")}`),
      );
      if (message.stop_reason !== "tool_use" || toolCalls.length === 0) {
        const reply = textOf(content);
        const problem =
          message.stop_reason === "max_tokens" && reply.trim() === ""
            ? `the model stopped at max_tokens (${settings.maxTokens}) before answering; raise maxTokens`
            : null;
        return result({ reply, exitCode: problem === null ? 0 : null, error: problem });
      }
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
    const stop = stopped();
    if (stop !== null) return result(stop);
    const description = describeApiError(error, sdk, settings, maxRetries);
    note(description.message);
    return result({ error: description.message });
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}

function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return Number.isInteger(seconds) ? `${seconds} s` : `${seconds.toFixed(1)} s`;
}
