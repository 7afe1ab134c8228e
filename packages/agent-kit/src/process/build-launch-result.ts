import type { AgentLaunchResult } from "./agent-launch-result.ts";

/**
 * The one way a launch result is made, whatever the agent: `fields` says what the launch did, and
 * everything it leaves out is "did not happen" (no reply, no exit, no error, no usage). The launch
 * is taken to end now.
 */
export function buildLaunchResult(
  startedAt: Date | string,
  fields: Partial<AgentLaunchResult> = {},
): AgentLaunchResult {
  return {
    reply: "",
    exitCode: null,
    signal: null,
    timedOut: false,
    interrupted: false,
    stderrTail: "",
    error: null,
    startedAt: typeof startedAt === "string" ? startedAt : startedAt.toISOString(),
    completedAt: new Date().toISOString(),
    usage: null,
    sessionId: null,
    command: null,
    ...fields,
  };
}
