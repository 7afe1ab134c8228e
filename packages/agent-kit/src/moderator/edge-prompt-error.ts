import { UwfError } from "@uwf/protocol";

/** An edge prompt that cannot be rendered (an undefined variable) or renders to nothing. */
export class EdgePromptError extends UwfError {
  constructor(from: string, to: string, reason: string, options: { cause?: unknown } = {}) {
    super("edge-prompt-failed", `the edge prompt from ${from} to ${to} ${reason}`, {
      data: { from, to, reason },
      cause: options.cause,
    });
    this.name = "EdgePromptError";
  }
}
