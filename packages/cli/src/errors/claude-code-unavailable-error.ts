import { UwfError } from "@uwf/protocol";

/** `uwf setup --agent claude-code` could not run `claude --version`. */
export class ClaudeCodeUnavailableError extends UwfError<"claude-code-unavailable"> {
  static override readonly code = "claude-code-unavailable" as const;
  static override readonly name = "ClaudeCodeUnavailableError";

  constructor(command: string, problem: string) {
    super(`cannot run Claude Code: ${problem}`, {
      data: { command, problem },
    });
  }
}
