import { UwfError } from "@uwf/protocol";

/** An edge prompt that cannot be rendered (an undefined variable) or renders to nothing. */
export class EdgePromptError extends UwfError {
  static readonly code = "edge-prompt-failed" as const;

  constructor(from: string, to: string, reason: string, options: { cause?: unknown } = {}) {
    super(EdgePromptError.code, `the edge prompt from ${from} to ${to} ${reason}`, {
      data: { from, to, reason },
      cause: options.cause,
    });
    this.name = "EdgePromptError";
  }
}
