import { realpath } from "node:fs/promises";
import { type Config, type McpServers, messageOf } from "@uwf/protocol";
import { loadConfig } from "../config/load-config.ts";
import { NoWorkingDirectoryError } from "../errors/no-working-directory-error.ts";
import type { AgentLaunchResult, AgentRunContext } from "../process/agent-launch-result.ts";
import { providerKeyVariables, storeSecretValues } from "../process/child-environment.ts";
import { formatSeconds } from "../process/format-seconds.ts";
import type { PreviousVisit } from "../process/previous-visit.ts";
import { DEFAULT_KILL_GRACE_MS } from "../process/run-process-group.ts";
import { launchOriginOf, newLaunchTag, stopTaggedProcesses } from "../process/stop-tagged-processes.ts";
import type { ToolContext } from "../tools/agent-tool.ts";
import { openRunTools } from "../tools/run-tools.ts";
import { summarizeApiError } from "./describe-api-error.ts";
import type { ModelProvider } from "./model-provider.ts";
import { apiKeyHint, readApiKey } from "./read-api-key.ts";
import { DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT_MS } from "./request-limits.ts";
import { type ModelSettings, type ProviderType, resolveModelSettings } from "./resolve-model-settings.ts";
import type { ToolLoopRun } from "./tool-loop-run.ts";

/** What a built-in agent's spec gives the loop (`builtin: anthropic` and `builtin: openai` alike). */
export interface ToolLoopAgentSpec {
  model?: string | undefined;
  maxTurns?: number | undefined;
  maxTokens?: number | undefined;
  passEnv?: string[] | undefined;
  mcpServers?: McpServers | undefined;
  /** Beats the model's provider's `baseUrl` (the openai agent's). */
  baseUrl?: string | undefined;
  /** Beats the model's provider's `apiKeyEnv` (the openai agent's). */
  apiKeyEnv?: string | undefined;
}

/** `timeoutMs` covers the whole loop (every request and tool call); `onStderr` gets a progress line per model turn and tool call. */
export interface ToolLoopOptions extends AgentRunContext {
  spec: ToolLoopAgentSpec;
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

/** What an adapter needs to make its client. */
export interface CreateProviderOptions {
  apiKey: string;
  settings: ModelSettings;
  requestTimeoutMs: number;
  /** Logs an SDK warning once. */
  onWarning: (text: string) => void;
}

/** The agent's API: which provider type it speaks, and how to make its adapter. */
export interface ToolLoopApi {
  providerType: ProviderType;
  createProvider(options: CreateProviderOptions): Promise<ModelProvider>;
}

/** `stop`: the run was interrupted or timed out while it was set up (its MCP servers starting). */
export type SetUpToolLoopRunResult =
  | { success: true; run: ToolLoopRun }
  | { success: false; error: string; stop?: Partial<AgentLaunchResult> };

/**
 * The first phase of a run: the model's settings from config.yaml (a model on a provider of another
 * type than the agent's is refused), the API key, the thread's cwd as a real path, the timer of
 * `timeoutMs` (counted from `startedAt`), the provider's adapter and the tools. A missing key, config
 * or cwd is an error, not an exception.
 */
export async function setUpToolLoopRun(
  options: ToolLoopOptions,
  api: ToolLoopApi,
  startedAt: Date,
  note: (line: string) => void,
): Promise<SetUpToolLoopRunResult> {
  let inputs: {
    settings: ModelSettings;
    keyVariables: string[];
    storeSecrets: string[];
    apiKey: string;
    workspace: string;
  };
  try {
    const config = options.config ?? (await loadConfig(options.env.home));
    const settings = resolveModelSettings({
      config,
      model: options.spec.model,
      maxTokens: options.spec.maxTokens,
      maxTurns: options.spec.maxTurns,
      agentType: api.providerType,
      baseUrl: options.spec.baseUrl,
      apiKeyEnv: options.spec.apiKeyEnv,
    });
    if (settings.providerType !== api.providerType) {
      return {
        success: false,
        error: `model "${settings.name}" is served by provider "${settings.provider}" of type ${settings.providerType}, but the built-in ${api.providerType} agent needs a provider of type ${api.providerType}; set the agent's model to one on such a provider`,
      };
    }
    const key = await readApiKey(settings.apiKeyEnv, options.env.home, options.environment);
    if (key === null) {
      return {
        success: false,
        error: `no API key for provider "${settings.provider}": ${settings.apiKeyEnv} is not set; ${apiKeyHint(settings.apiKeyEnv)}`,
      };
    }
    const workspace = await realpath(options.cwd).catch(() => {
      throw new NoWorkingDirectoryError(options.cwd);
    });
    inputs = {
      settings,
      keyVariables: providerKeyVariables(config),
      storeSecrets: [...(options.secretValues ?? []), ...storeSecretValues(config)],
      apiKey: key.value,
      workspace,
    };
  } catch (error) {
    return { success: false, error: messageOf(error) };
  }
  const { settings, keyVariables, storeSecrets, apiKey, workspace } = inputs;

  const deadline = options.timeoutMs > 0 ? startedAt.getTime() + options.timeoutMs : null;
  const timeout = new AbortController();
  const timer = deadline === null ? null : setTimeout(() => timeout.abort(), Math.min(options.timeoutMs, 2 ** 31 - 1));
  const signal = options.signal === undefined ? timeout.signal : AbortSignal.any([options.signal, timeout.signal]);
  const stopped: ToolLoopRun["stopped"] = () => {
    if (options.signal?.aborted) return { interrupted: true, error: "the agent was interrupted" };
    // The deadline too, not only the timer: the timer starts after the set-up, so a tool stopped at the
    // deadline (counted from `startedAt`) may end before it fires, and the loop must not go on.
    if (timeout.signal.aborted || (deadline !== null && Date.now() >= deadline))
      return { timedOut: true, error: `the agent timed out after ${formatSeconds(options.timeoutMs)}` };
    return null;
  };

  note(`${settings.model} via ${settings.provider}`);
  const warned = new Set<string>();
  // uwf counts and paces the retries itself (`callWithApiRetries`), mid-stream errors included: the client makes one attempt.
  const provider = await api.createProvider({
    apiKey,
    settings,
    requestTimeoutMs:
      deadline === null ? DEFAULT_REQUEST_TIMEOUT_MS : Math.min(DEFAULT_REQUEST_TIMEOUT_MS, options.timeoutMs),
    onWarning: (text) => {
      if (!warned.has(text)) note(`SDK warning: ${text.replace(/\s+/g, " ").trim()}`);
      warned.add(text);
    },
  });
  // What the run's commands leave running is stopped when the run ends, with its MCP servers.
  const launchTag = newLaunchTag();
  const stopCommandLeftovers = () =>
    stopTaggedProcesses(launchTag, options.killGraceMs ?? DEFAULT_KILL_GRACE_MS, launchOriginOf(process.pid)).then(
      () => {},
    );
  const toolContext: ToolContext = {
    workspace,
    launchTag,
    env: options.env,
    signal,
    deadline,
    ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    // Tools run without the provider keys or the store's secrets, and no tool result shows them.
    keyVariables,
    passEnv: options.spec.passEnv ?? [],
    secretValues: [apiKey, ...storeSecrets],
  };
  const runTools = await openRunTools({ servers: options.spec.mcpServers, context: toolContext, note });
  if (!runTools.success) {
    if (timer !== null) clearTimeout(timer);
    // Ctrl-C or the timeout while the servers started is that, not a failure of the servers.
    const stop = stopped();
    return { success: false, error: runTools.error, ...(stop === null ? {} : { stop }) };
  }
  const { tools: agentTools, close: closeTools } = runTools.value;
  return {
    success: true,
    run: {
      settings,
      provider,
      agentTools,
      toolContext,
      signal,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      note,
      say: (text) => options.onStdout?.(text.endsWith("\n") ? text : `${text}\n`),
      onRetry: (what) => (retry) => {
        note(
          `${what}: ${summarizeApiError(retry.error, provider.errors)} (attempt ${retry.attempt} of ${retry.attempts}); retrying in ${formatSeconds(retry.delayMs)}`,
        );
      },
      stopped,
      dispose: async () => {
        if (timer !== null) clearTimeout(timer);
        await closeTools();
        await stopCommandLeftovers();
      },
      transcript: [],
      usage: null,
      cutOff: "",
    },
  };
}
