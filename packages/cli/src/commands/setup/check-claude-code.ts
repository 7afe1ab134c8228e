import { CLAUDE_CODE_COMMAND, runProcessGroup } from "@uwf/agent-kit";

export interface CheckClaudeCodeOptions {
  /** The program to check. Default `claude` (from PATH). */
  command?: string;
  cwd: string;
  /** Milliseconds before the check gives up. Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type CheckClaudeCodeResult =
  | { success: true; command: string; version: string }
  | { success: false; command: string; problem: string };

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Checks that Claude Code runs: `claude --version` must exit 0 and print a
 * Claude Code version. Makes no request and needs no key (Claude Code's own
 * login or `ANTHROPIC_API_KEY` is its business). The problem says how to fix it.
 */
export async function checkClaudeCode(options: CheckClaudeCodeOptions): Promise<CheckClaudeCodeResult> {
  const command = options.command ?? CLAUDE_CODE_COMMAND;
  const run = await runProcessGroup({
    command,
    args: ["--version"],
    cwd: options.cwd,
    env: {},
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    captureStdout: true,
    label: `${command} --version`,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const version = run.reply.trim().split("\n", 1)[0]?.trim() ?? "";
  const install =
    command === CLAUDE_CODE_COMMAND
      ? "install Claude Code (npm install -g @anthropic-ai/claude-code) or set agents.claude-code.command to its path"
      : "fix agents.claude-code.command";
  if (run.error !== null) {
    const notFound = run.exitCode === null && run.signal === null && !run.timedOut && !run.interrupted;
    return { success: false, command, problem: `${run.error}${notFound ? `; ${install}` : ""}` };
  }
  if (run.exitCode !== 0) {
    const detail = run.stderrTail.trim().split("\n").at(-1)?.trim() ?? "";
    return {
      success: false,
      command,
      problem: `${command} --version exited with code ${run.exitCode}${detail === "" ? "" : `: ${detail}`}`,
    };
  }
  if (!/claude code/i.test(version)) {
    return {
      success: false,
      command,
      problem: `${command} --version printed "${version}", not a Claude Code version; ${install}`,
    };
  }
  return { success: true, command, version };
}
