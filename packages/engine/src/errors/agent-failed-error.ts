import { UwfError } from "@uwf/protocol";

/** The agent did not produce a valid reply; its run (with the raw reply) is in the store, named by `data.run`. */
export class AgentFailedError extends UwfError {
  static readonly code = "agent-failed" as const;

  constructor(threadId: string, role: string, detail: string, run: string) {
    super(AgentFailedError.code, `${role}: ${detail} — no step was recorded`, {
      data: { thread: threadId, role, run, detail },
    });
    this.name = "AgentFailedError";
  }
}
