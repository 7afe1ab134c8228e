import type { AgentSpec, Config } from "@uwf/protocol";
import { AgentUnavailableError } from "../errors/agent-unavailable-error.ts";
import type { AgentLaunchResult, AgentRunContext } from "../process/agent-launch-result.ts";
import { providerKeyVariables, storeSecretValues } from "../process/child-environment.ts";
import type { PreviousVisit } from "../process/previous-visit.ts";
import { runScriptedAgent } from "./scripted-agent.ts";

export interface LaunchAgentOptions extends AgentRunContext {
  spec: AgentSpec;
  /** The name the agent is known by (config alias), for messages and the agent-run record. */
  alias: string;
  /** 0 for the first launch of a step, 1, 2... for retries after an invalid reply. */
  attempt?: number;
  /**
   * The role's previous visit in this thread's chain, for agents that keep a conversation
   * (the built-in `anthropic` agent continues its transcript, Claude Code resumes its session).
   * `shared` is true when that visit is also part of another thread (it precedes this thread's
   * fork point), so a session must be forked rather than continued in place.
   */
  previousVisit?: PreviousVisit;
  /**
   * What to send instead of `prompt` when the agent continues the conversation of `previousVisit`
   * (its last visit and the steps since, not the whole thread it already has). Agents that keep no
   * conversation, and a conversation that has to start afresh, get `prompt`; the launch says which
   * it sent in `AgentLaunchResult.continued`.
   */
  continuationPrompt?: string;
  /** config.yaml, for model-driven agents (providers, models, prices); read from `env.home` when not given. */
  config?: Config;
  /** For the `scripted` built-in. Defaults: `stepIndex` = `env.step - 1`, `routedRole` = `env.role`, `baseDir` = `cwd`. */
  scenario?: { stepIndex?: number; routedRole?: string; baseDir?: string; branch?: { key: string; index: number } };
}

/**
 * Launches the agent of one step, whatever its kind, and returns what it did
 * as data. Throws only `AgentUnavailableError`, for kinds not implemented yet.
 * Modules that spawn processes or load the model SDK are loaded on first use.
 */
export async function launchAgent(options: LaunchAgentOptions): Promise<AgentLaunchResult> {
  const { spec } = options;
  const processOptions = {
    prompt: options.prompt,
    cwd: options.cwd,
    env: options.env,
    timeoutMs: options.timeoutMs,
    // The store's password stays out of every agent's environment, whichever variable holds it.
    secretValues: [...(options.secretValues ?? []), ...storeSecretValues(options.config)],
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
    ...(options.onStdout === undefined ? {} : { onStdout: options.onStdout }),
    ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
    ...(options.onActivity === undefined ? {} : { onActivity: options.onActivity }),
    ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
  };
  /** What the built-in agent loops (anthropic, openai) take beside their spec. */
  const agentLoopOptions = () => ({
    alias: options.alias,
    ...processOptions,
    ...(options.previousVisit === undefined ? {} : { previousVisit: options.previousVisit }),
    ...(options.continuationPrompt === undefined ? {} : { continuationPrompt: options.continuationPrompt }),
    ...(options.config === undefined ? {} : { config: options.config }),
  });
  if ("command" in spec && !("preset" in spec)) {
    const { launchCommandAgent } = await import("./launch-command-agent.ts");
    return launchCommandAgent({
      spec,
      keyVariables: providerKeyVariables(options.config),
      ...processOptions,
      ...(options.config === undefined ? {} : { config: options.config }),
    });
  }
  if ("builtin" in spec) {
    switch (spec.builtin) {
      case "scripted":
        return runScriptedAgent({
          spec,
          baseDir: options.scenario?.baseDir ?? options.cwd,
          stepIndex: options.scenario?.stepIndex ?? options.env.step - 1,
          routedRole: options.scenario?.routedRole ?? options.env.role,
          ...(options.scenario?.branch === undefined ? {} : { branch: options.scenario.branch }),
          attempt: options.attempt ?? 0,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
      case "shell": {
        const { runShellAgent } = await import("./shell-agent.ts");
        return runShellAgent({ spec, keyVariables: providerKeyVariables(options.config), ...processOptions });
      }
      case "anthropic": {
        const { runAnthropicAgent } = await import("../anthropic/run-anthropic-agent.ts");
        return runAnthropicAgent({ spec, ...agentLoopOptions() });
      }
      case "openai": {
        const { runOpenaiAgent } = await import("../openai/run-openai-agent.ts");
        return runOpenaiAgent({ spec, ...agentLoopOptions() });
      }
    }
  }
  if ("preset" in spec && spec.preset === "claude-code") {
    const { runClaudeCodeAgent } = await import("../claude-code/run-claude-code-agent.ts");
    return runClaudeCodeAgent({
      spec,
      ...processOptions,
      ...(options.previousVisit === undefined ? {} : { previousVisit: options.previousVisit }),
      ...(options.continuationPrompt === undefined ? {} : { continuationPrompt: options.continuationPrompt }),
      ...(options.config === undefined ? {} : { config: options.config }),
      ...(options.attempt === undefined ? {} : { attempt: options.attempt }),
    });
  }
  throw new AgentUnavailableError(options.alias, "preset" in spec ? `${spec.preset} preset` : "unknown");
}
