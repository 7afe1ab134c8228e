import type { PresetAgentSpec } from "@uwf/protocol";

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

export interface BuildClaudeCodeArgsOptions {
  /** The id of the session this run creates, chosen up front (a UUID), so even an interrupted run keeps it. */
  sessionId: string;
  /** The session of the role's previous visit, continued as a fork; null or absent for a fresh conversation. */
  resumeSessionId?: string | null;
}

/**
 * The command line of one Claude Code run: headless (`-p`, the prompt on
 * stdin), streaming its progress as JSON lines (`--output-format stream-json`,
 * which Claude Code allows only with `--verbose`), the preset's `args` (else
 * the default permission flags), `--model`, and `--session-id` for the session
 * it creates. On the role's next visit `--resume SESSION --fork-session`: the
 * session is always resumed as a fork, because Claude Code appends to a session
 * it resumes in place, so a session recorded in a step would change after the
 * fact and a thread forked from that step later would see turns of the other
 * branch. Forking keeps each recorded session id a snapshot of the conversation
 * up to its step; `--session-id` names the fork.
 */
export function buildClaudeCodeArgs(spec: PresetAgentSpec, options: BuildClaudeCodeArgsOptions): string[] {
  const args = [
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    ...(spec.args ?? DEFAULT_CLAUDE_CODE_PERMISSION_ARGS),
  ];
  if (spec.model !== undefined) args.push("--model", spec.model);
  args.push("--session-id", options.sessionId);
  const resume = options.resumeSessionId;
  if (resume !== null && resume !== undefined && resume !== "") args.push("--resume", resume, "--fork-session");
  return args;
}
