import type { AgentRunNode } from "@uwf/protocol";

/** The agent name of the run a timeout step records (a suspension that waited past its `suspendTimeout`): no agent ran. */
export const TIMEOUT_AGENT = "$timeout";
/** The kind of that run. */
export const TIMEOUT_RUN_KIND = "timeout";

/** Whether a step's run is a timeout step's, which no agent played. */
export function isTimeoutRun(run: Pick<AgentRunNode, "agent" | "kind">): boolean {
  return run.agent === TIMEOUT_AGENT && run.kind === TIMEOUT_RUN_KIND;
}
