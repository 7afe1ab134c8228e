import type { CommandAgentSpec } from "@uwf/protocol";
import type { AgentLaunchResult, AgentRunContext } from "./agent-launch-result.ts";
import { buildAgentVariables, substituteAgentArgs } from "./agent-variables.ts";
import { runProcessGroup } from "./run-process-group.ts";
import { withPromptFile } from "./with-prompt-file.ts";

export interface LaunchCommandAgentOptions extends AgentRunContext {
  spec: CommandAgentSpec;
}

/**
 * Runs a command agent: the prompt on stdin and in `UWF_PROMPT_FILE`, the
 * step in `UWF_*` variables and `{...}` placeholders, the whole stdout as the
 * reply. A non-zero exit, a timeout or an interrupt is a failed launch, and the
 * captured stdout is kept.
 */
export async function launchCommandAgent(options: LaunchCommandAgentOptions): Promise<AgentLaunchResult> {
  const { spec, env } = options;
  return withPromptFile(options.prompt, async (promptFile) => {
    const args = substituteAgentArgs(spec.args ?? [], env, promptFile);
    const result = await runProcessGroup({
      command: spec.command,
      args,
      cwd: options.cwd,
      env: { ...spec.env, ...buildAgentVariables(env, promptFile) },
      input: options.prompt,
      label: "the agent",
      timeoutMs: options.timeoutMs,
      captureStdout: true,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    });
    let error = result.error;
    if (error === null && result.exitCode !== 0) {
      const lastLine = result.stderrTail.trimEnd().split("\n").at(-1)?.trim() ?? "";
      error = `the agent exited with code ${result.exitCode}${lastLine === "" ? "" : `: ${lastLine}`}`;
    }
    return {
      reply: result.stdout,
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      interrupted: result.interrupted,
      stderrTail: result.stderrTail,
      error,
      startedAt: result.startedAt,
      completedAt: result.completedAt,
      usage: null,
      sessionId: null,
      command: [spec.command, ...args],
    };
  });
}
