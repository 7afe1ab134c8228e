import { UwfError } from "@uwf/protocol";

/** The agent did not produce a valid reply; its run (with the raw reply) is in the store, named by `data.run`. */
export class AgentFailedError extends UwfError<"agent-failed"> {
  static override readonly code = "agent-failed" as const;
  static override readonly name = "AgentFailedError";

  constructor(threadId: string, role: string, detail: string, run: string) {
    super(`${role}: ${detail} — no step was recorded`, {
      data: { thread: threadId, role, run, detail },
    });
  }
}
