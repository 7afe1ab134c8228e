import { UwfError } from "@uwf/protocol";

/** The agent did not produce a valid reply; its run (with the raw reply) is in the store. */
export class AgentFailedError extends UwfError {
  constructor(threadId: string, role: string, detail: string, run: string) {
    super("agent-failed", `${role}: ${detail} — the thread is unchanged; see \`uwf show ${run} --reply\``, {
      data: { thread: threadId, role, run, detail },
    });
    this.name = "AgentFailedError";
  }
}
