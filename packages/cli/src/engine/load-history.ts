import type { ObjectStore } from "@uwf/cas";
import { agentRunNodeSchema, outputNodeSchema, textNodeSchema, type Usage } from "@uwf/protocol";
import type { ThreadChain } from "./read-chain.ts";

/** A step as the moderator, the prompt builder and `read` see it. */
export interface HistoryStep {
  number: number;
  address: string;
  role: string;
  agent: string;
  output: Record<string, unknown>;
  body: string;
  edgePrompt: string;
  startedAt: string;
  completedAt: string;
  run: string;
  usage: Usage | null;
}

/** Loads each step's output, body and agent name. */
export async function loadHistory(objects: ObjectStore, chain: ThreadChain): Promise<HistoryStep[]> {
  return Promise.all(
    chain.steps.map(async ({ number, address, node }) => {
      const [output, body, run] = await Promise.all([
        objects.get(node.output).then((value) => outputNodeSchema.parse(value)),
        objects.get(node.body).then((value) => textNodeSchema.parse(value)),
        objects.get(node.run).then((value) => agentRunNodeSchema.parse(value)),
      ]);
      return {
        number,
        address,
        role: node.role,
        agent: run.agent,
        output: output.fields,
        body: body.text,
        edgePrompt: node.edgePrompt,
        startedAt: node.startedAt,
        completedAt: node.completedAt,
        run: node.run,
        usage: run.usage,
      };
    }),
  );
}
