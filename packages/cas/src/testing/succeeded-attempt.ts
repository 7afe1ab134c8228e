import type { Address, AgentRunNode } from "@uwf/protocol";

export interface SucceededAttemptInput {
  request: Address;
  reply: Address;
  /** ISO 8601 times of the attempt. */
  startedAt: string;
  completedAt: string;
}

/** An agent-run attempt that sent `request` and got `reply` back from a process that exited 0. */
export function succeededAttempt(input: SucceededAttemptInput): AgentRunNode["attempts"][number] {
  return {
    request: input.request,
    reply: input.reply,
    exitCode: 0,
    signal: null,
    timedOut: false,
    interrupted: false,
    stderrTail: "",
    error: null,
    startedAt: input.startedAt,
    completedAt: input.completedAt,
  };
}
