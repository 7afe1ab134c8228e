import { UwfError } from "@uwf/protocol";

/** `uwf setup --agent claude-code` could not run `claude --version`. */
export class ClaudeCodeUnavailableError extends UwfError {
  static readonly code = "claude-code-unavailable" as const;

  constructor(command: string, problem: string) {
    super(ClaudeCodeUnavailableError.code, `cannot run Claude Code: ${problem}`, {
      data: { command, problem },
    });
    this.name = "ClaudeCodeUnavailableError";
  }
}
