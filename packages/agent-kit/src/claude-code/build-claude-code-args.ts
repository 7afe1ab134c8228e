import type { PresetAgentSpec } from "@uwf/protocol";
import type { PreviousVisit } from "../agents/launch-agent.ts";

/** The program run when the preset names none. */
export const CLAUDE_CODE_COMMAND = "claude";

/**
 * Permission flags for unattended runs when the preset gives no `args`: file
 * edits inside the working directory are accepted without asking, and shell
 * commands are allowed. (`--dangerously-skip-permissions` would allow everything,
 * but Claude Code refuses it when run as root.)
 */
export const DEFAULT_CLAUDE_CODE_PERMISSION_ARGS: readonly string[] = [
  "--permission-mode",
  "acceptEdits",
  "--allowedTools",
  "Bash",
];

/**
 * The command line of one Claude Code run: headless (`-p`, the prompt on
 * stdin) with JSON output, the preset's `args` (else the default permission
 * flags) and `--model`; on the role's next visit `--resume SESSION
 * --fork-session`. The session is always resumed as a fork: Claude Code
 * appends to a session it resumes in place, so a session recorded in a step
 * would change after the fact and a thread forked from that step later would
 * see turns of the other branch. Forking keeps each recorded session id a
 * snapshot of the conversation up to its step, whether or not the visit is
 * `shared` with another thread.
 */
export function buildClaudeCodeArgs(spec: PresetAgentSpec, previousVisit: PreviousVisit | undefined): string[] {
  const args = ["-p", "--output-format", "json", ...(spec.args ?? DEFAULT_CLAUDE_CODE_PERMISSION_ARGS)];
  if (spec.model !== undefined) args.push("--model", spec.model);
  const sessionId = previousVisit?.sessionId;
  if (sessionId !== null && sessionId !== undefined && sessionId !== "") {
    args.push("--resume", sessionId, "--fork-session");
  }
  return args;
}
