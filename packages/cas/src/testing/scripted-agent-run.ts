import type { Address, AgentRunNode } from "@uwf/protocol";

export interface ScriptedAgentRunInput {
  agent: string;
  cwd: string;
  prompt: Address;
  reply: Address;
  /** ISO 8601 times of the one attempt. */
  startedAt: string;
  completedAt: string;
}

/** The agent-run node of a scripted agent that answered `prompt` with `reply` at its first attempt. */
export function scriptedAgentRun(input: ScriptedAgentRunInput): AgentRunNode {
  return {
    type: "agent-run/1",
    agent: input.agent,
    kind: "scripted",
    command: null,
    cwd: input.cwd,
    prompt: input.prompt,
    attempts: [
      {
        request: input.prompt,
        reply: input.reply,
        exitCode: 0,
        signal: null,
        timedOut: false,
        interrupted: false,
        stderrTail: "",
        error: null,
        startedAt: input.startedAt,
        completedAt: input.completedAt,
      },
    ],
    outcome: "ok",
    error: null,
    sessionId: null,
    usage: null,
    extraction: "frontmatter",
    transcript: null,
  };
}
