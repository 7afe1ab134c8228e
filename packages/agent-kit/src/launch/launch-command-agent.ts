import type { CommandAgentSpec, Config } from "@uwf/protocol";
import type { AgentLaunchResult, AgentRunContext } from "../process/agent-launch-result.ts";
import { buildAgentVariables, substituteAgentArgs } from "../process/agent-variables.ts";
import { buildChildEnvironment } from "../process/child-environment.ts";
import { runProcessGroup } from "../process/run-process-group.ts";
import { withPromptFile } from "../process/with-prompt-file.ts";
import { addReportedUsage } from "./read-usage-file.ts";

export interface LaunchCommandAgentOptions extends AgentRunContext {
  spec: CommandAgentSpec;
  /** Key variables beyond `ANTHROPIC_*` and `*_API_KEY` (the providers' `apiKeyEnv`): left out unless passed. */
  keyVariables?: readonly string[];
  /** config.yaml, for the prices of a model the agent names in its usage file. */
  config?: Config;
}

/**
 * Runs a command agent: the prompt on stdin and in `UWF_PROMPT_FILE`, the
 * step in `UWF_*` variables and `{...}` placeholders, the whole stdout as the
 * reply. Provider keys and the store's variables are not in its environment
 * unless `spec.passEnv` names them. The usage it writes to `UWF_USAGE_FILE` is counted
 * (`addReportedUsage`). A non-zero exit, a timeout or an interrupt is a failed launch, and the
 * captured stdout is kept.
 */
export async function launchCommandAgent(options: LaunchCommandAgentOptions): Promise<AgentLaunchResult> {
  const { spec, env } = options;
  return withPromptFile(options.prompt, async (promptFile, usageFile) => {
    const args = substituteAgentArgs(spec.args ?? [], env, promptFile);
    const result = await runProcessGroup({
      command: spec.command,
      args,
      cwd: options.cwd,
      env: buildChildEnvironment({
        keyVariables: options.keyVariables ?? [],
        passEnv: spec.passEnv ?? [],
        secretValues: options.secretValues ?? [],
        add: { ...spec.env, ...buildAgentVariables(env, promptFile, usageFile) },
      }),
      extendEnv: false,
      input: options.prompt,
      label: "the agent",
      stopLeftovers: true,
      timeoutMs: options.timeoutMs,
      captureStdout: true,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
      ...(options.onStdout === undefined ? {} : { onStdout: options.onStdout }),
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
      ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
    });
    const reported = addReportedUsage(result, usageFile, options);
    if (result.error !== null || result.exitCode === 0) return reported;
    const lastLine = result.stderrTail.trimEnd().split("\n").at(-1)?.trim() ?? "";
    return {
      ...reported,
      error: `the agent exited with code ${result.exitCode}${lastLine === "" ? "" : `: ${lastLine}`}`,
    };
  });
}
