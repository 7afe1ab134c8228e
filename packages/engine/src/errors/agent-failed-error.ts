import { UwfError } from "@uwf/protocol";

/** The agent did not produce a valid reply; its run (with the raw reply) is in the store, named by `data.run`. */
export class AgentFailedError extends UwfError<"agent-failed"> {
  static override readonly code = "agent-failed" as const;
  static override readonly name = "AgentFailedError";

  /**
   * The run was made under the role's own `retries:`, which were the whole policy: a worker does not
   * try the step again on top of them.
   */
  readonly retriedByRole: boolean;

  constructor(threadId: string, role: string, detail: string, run: string, options: { retriedByRole?: boolean } = {}) {
    super(`${role}: ${detail} — no step was recorded`, {
      data: { thread: threadId, role, run, detail },
    });
    this.retriedByRole = options.retriedByRole === true;
  }
}
