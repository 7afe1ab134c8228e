import type { PresetAgentSpec } from "@uwf/protocol";
import type { AgentLaunchResult, AgentRunContext } from "../agents/agent-launch-result.ts";
import { buildAgentVariables } from "../agents/agent-variables.ts";
import type { PreviousVisit } from "../agents/launch-agent.ts";
import { runProcessGroup } from "../agents/run-process-group.ts";
import { withPromptFile } from "../agents/with-prompt-file.ts";
import { buildClaudeCodeArgs, CLAUDE_CODE_COMMAND } from "./build-claude-code-args.ts";
import { parseClaudeCodeOutput } from "./parse-claude-code-output.ts";

export interface RunClaudeCodeAgentOptions extends AgentRunContext {
  spec: PresetAgentSpec;
  /** The role's previous visit: its Claude Code session is resumed, as a fork (see `buildClaudeCodeArgs`). */
  previousVisit?: PreviousVisit;
}

/**
 * The `claude-code` preset: runs the `claude` CLI headless in the thread's cwd,
 * in its own process group (a timeout stops everything it started), with the
 * prompt on stdin. The reply is Claude Code's final result text; its session
 * id, token usage and `total_cost_usd` are recorded so the role's next visit
 * resumes the same session.
 */
export async function runClaudeCodeAgent(options: RunClaudeCodeAgentOptions): Promise<AgentLaunchResult> {
  const { spec } = options;
  const command = spec.command ?? CLAUDE_CODE_COMMAND;
  const args = buildClaudeCodeArgs(spec, options.previousVisit);
  return withPromptFile(options.prompt, async (promptFile) => {
    const run = await runProcessGroup({
      command,
      args,
      cwd: options.cwd,
      env: buildAgentVariables(options.env, promptFile),
      input: options.prompt,
      label: "Claude Code",
      timeoutMs: options.timeoutMs,
      captureStdout: true,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    });
    const output = parseClaudeCodeOutput(run.stdout);
    let error = run.error;
    if (error === null && output === null) {
      const detail = lastLine(run.stderrTail) || lastLine(run.stdout);
      error = `Claude Code ${run.exitCode === 0 ? "gave no JSON result" : `exited with code ${run.exitCode}`}${detail === "" ? "" : `: ${detail}`}`;
    } else if (error === null && output !== null && (output.isError || run.exitCode !== 0)) {
      const detail = output.result.trim() === "" ? (output.subtype ?? "error") : firstLine(output.result);
      error = `Claude Code failed (${output.subtype ?? `exit code ${run.exitCode}`}): ${detail}`;
    }
    return {
      reply: output?.result ?? run.stdout,
      exitCode: run.exitCode,
      signal: run.signal,
      timedOut: run.timedOut,
      interrupted: run.interrupted,
      stderrTail: run.stderrTail,
      error,
      startedAt: run.startedAt,
      completedAt: run.completedAt,
      usage: output?.usage ?? null,
      sessionId: output?.sessionId ?? options.previousVisit?.sessionId ?? null,
      transcript: null,
      command: [command, ...args],
    };
  });
}

function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1)?.trim() ?? "";
}

function firstLine(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
