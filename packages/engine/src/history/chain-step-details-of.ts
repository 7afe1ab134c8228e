import type { ChainStepDetails } from "@uwf/cas";
import type { AgentRunNode, ThreadStepNode } from "@uwf/protocol";

/** What a step's chain index keeps of it (see `ChainIndexStep.details`): from its node, agent run and output fields. */
export function chainStepDetailsOf(
  node: Pick<ThreadStepNode, "output" | "body" | "startedAt" | "completedAt">,
  run: Pick<AgentRunNode, "agent" | "usage">,
  fields: Record<string, unknown>,
): ChainStepDetails {
  const status = fields.$status;
  return {
    output: node.output,
    body: node.body,
    agent: run.agent,
    startedAt: node.startedAt,
    completedAt: node.completedAt,
    status: typeof status === "string" ? status : null,
    usage: run.usage,
  };
}
