import type { ObjectStore } from "@uwf/cas";
import type { AgentRunNode, OutputNode, TextNode, Usage } from "@uwf/protocol";
import type { ThreadChain } from "./read-chain.ts";
import { storedNodeAs } from "./stored-node.ts";

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
        objects.get(node.output).then((value) => storedNodeAs<OutputNode>("output/1", node.output, value)),
        objects.get(node.body).then((value) => storedNodeAs<TextNode>("text/1", node.body, value)),
        objects.get(node.run).then((value) => storedNodeAs<AgentRunNode>("agent-run/1", node.run, value)),
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
