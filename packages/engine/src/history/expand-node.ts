import type { ObjectStore } from "@uwf/cas";
import {
  agentRunNodeSchema,
  type ExpandedNode,
  nodeKind,
  outputNodeSchema,
  textNodeSchema,
  threadStepNodeSchema,
} from "@uwf/protocol";

/** A node with what a reader wants beside it: for a step, its output fields, body and agent run. */
export async function expandNode(objects: ObjectStore, address: string): Promise<ExpandedNode> {
  const node = await objects.get(address);
  const expanded: ExpandedNode = { address, kind: nodeKind(node), node };
  const step = threadStepNodeSchema.safeParse(node);
  if (!step.success) return expanded;
  const [output, body, run] = await Promise.all([
    objects.get(step.data.output),
    objects.get(step.data.body),
    objects.get(step.data.run),
  ]);
  expanded.output = outputNodeSchema.parse(output).fields;
  expanded.body = textNodeSchema.parse(body).text;
  expanded.run = agentRunNodeSchema.parse(run);
  return expanded;
}
