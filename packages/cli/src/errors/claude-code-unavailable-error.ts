import { UwfError } from "@uwf/protocol";

/** `uwf setup --agent claude-code` could not run `claude --version`. */
export class ClaudeCodeUnavailableError extends UwfError {
  constructor(command: string, problem: string) {
    super("claude-code-unavailable", `cannot run Claude Code: ${problem}`, {
      data: { command, problem },
    });
    this.name = "ClaudeCodeUnavailableError";
  }
}
