import type { ObjectStore } from "@uwf/cas";
import {
  agentRunNodeSchema,
  answerNodeSchema,
  type ExpandedNode,
  nodeKind,
  outputNodeSchema,
  textNodeSchema,
  threadStepNodeSchema,
} from "@uwf/protocol";

/** A node with what a reader wants beside it: for a step, its output fields, body, agent run and a person's typed answer. */
export async function expandNode(objects: ObjectStore, address: string): Promise<ExpandedNode> {
  const node = await objects.get(address);
  const expanded: ExpandedNode = { address, kind: nodeKind(node), node };
  const step = threadStepNodeSchema.safeParse(node);
  if (!step.success) return expanded;
  const { answer: answerAddress } = step.data;
  const [output, body, run, answer] = await Promise.all([
    objects.get(step.data.output),
    objects.get(step.data.body),
    objects.get(step.data.run),
    answerAddress === undefined ? undefined : objects.get(answerAddress),
  ]);
  expanded.output = outputNodeSchema.parse(output).fields;
  expanded.body = textNodeSchema.parse(body).text;
  expanded.run = agentRunNodeSchema.parse(run);
  if (answer !== undefined) expanded.answer = answerNodeSchema.parse(answer).fields;
  return expanded;
}
