import { realpath } from "node:fs/promises";
import { messageOf } from "@uwf/protocol";
import { loadConfig } from "../config/load-config.ts";
import { NoWorkingDirectoryError } from "../errors/no-working-directory-error.ts";
import type { AgentLaunchResult } from "../process/agent-launch-result.ts";
import { providerKeyVariables, storeSecretValues } from "../process/child-environment.ts";
import { formatSeconds } from "../process/format-seconds.ts";
import type { ToolContext } from "../tools/agent-tool.ts";
import { toolDefinitions } from "../tools/agent-tools.ts";
import { openRunTools } from "../tools/run-tools.ts";
import type { AnthropicRun } from "./anthropic-run.ts";
import { createAnthropicClient, DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT_MS } from "./create-anthropic-client.ts";
import { summarizeApiError } from "./describe-api-error.ts";
import { apiKeyHint, readApiKey } from "./read-api-key.ts";
import { type ModelSettings, resolveModelSettings } from "./resolve-model-settings.ts";
import type { RunAnthropicAgentOptions } from "./run-anthropic-agent.ts";

/** `stop`: the run was interrupted or timed out while it was set up (its MCP servers starting). */
export type SetUpAnthropicRunResult =
  | { success: true; run: AnthropicRun }
  | { success: false; error: string; stop?: Partial<AgentLaunchResult> };

/**
 * The first phase of a run: the model's settings from config.yaml, the API key, the thread's cwd as
 * a real path, the timer of `timeoutMs` (counted from `startedAt`), the client and the tools'
 * context. A missing key, config or cwd is an error, not an exception.
 */
export async function setUpAnthropicRun(
  options: RunAnthropicAgentOptions,
  startedAt: Date,
  note: (line: string) => void,
): Promise<SetUpAnthropicRunResult> {
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
    });
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
  const stopped: AnthropicRun["stopped"] = () => {
    if (options.signal?.aborted) return { interrupted: true, error: "the agent was interrupted" };
    // The deadline too, not only the timer: the timer starts after the set-up, so a tool stopped at the
    // deadline (counted from `startedAt`) may end before it fires, and the loop must not go on.
    if (timeout.signal.aborted || (deadline !== null && Date.now() >= deadline))
      return { timedOut: true, error: `the agent timed out after ${formatSeconds(options.timeoutMs)}` };
    return null;
  };

  note(`${settings.model} via ${settings.provider}`);
  // uwf counts and paces the retries itself (`callWithApiRetries`), mid-stream errors included.
  const { client, sdk } = await createAnthropicClient({
    apiKey,
    baseUrl: settings.baseUrl,
    maxRetries: 0,
    requestTimeoutMs:
      deadline === null ? DEFAULT_REQUEST_TIMEOUT_MS : Math.min(DEFAULT_REQUEST_TIMEOUT_MS, options.timeoutMs),
  });
  const warned = new Set<string>();
  const toolContext: ToolContext = {
    workspace,
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
      client,
      sdk,
      agentTools,
      tools: toolDefinitions(agentTools),
      toolContext,
      signal,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      note,
      onWarning: (text) => {
        if (!warned.has(text)) note(`SDK warning: ${text.replace(/\s+/g, " ").trim()}`);
        warned.add(text);
      },
      onRetry: (what) => (retry) => {
        note(
          `${what}: ${summarizeApiError(retry.error, sdk)} (attempt ${retry.attempt} of ${retry.attempts}); retrying in ${formatSeconds(retry.delayMs)}`,
        );
      },
      stopped,
      dispose: async () => {
        if (timer !== null) clearTimeout(timer);
        await closeTools();
      },
      transcript: [],
      usage: null,
      cutOff: "",
    },
  };
}
