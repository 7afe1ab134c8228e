import { UwfError } from "@uwf/protocol";

/** An edge prompt that cannot be rendered (an undefined variable) or renders to nothing. */
export class EdgePromptError extends UwfError<"edge-prompt-failed"> {
  static override readonly code = "edge-prompt-failed" as const;
  static override readonly name = "EdgePromptError";

  constructor(from: string, to: string, reason: string, options: { cause?: unknown } = {}) {
    super(`the edge prompt from ${from} to ${to} ${reason}`, {
      data: { from, to, reason },
      cause: options.cause,
    });
  }
}
