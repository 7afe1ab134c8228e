import {
  type ChainIndex,
  type ChainStepDetails,
  CorruptNodeError,
  canonicalizeJson,
  NodeNotFoundError,
  type Store,
} from "@uwf/cas";
import { type Address, type AgentRunNode, nodeKind, type OutputNode, type ThreadStepNode } from "@uwf/protocol";

/** A thread's chain index that disagrees with the chain it names; `address` is its first wrong step. */
export interface ChainIndexProblem {
  threadId: string;
  address: Address;
  message: string;
}

/**
 * Reads the step nodes every chain index names and checks that they are one chain, step by step:
 * each a stored step node with the index's role, the index's start, and the step before it as
 * `prev`; and where the index keeps a step's details, that they are its node's output, body and
 * times, its agent run's agent and usage, and its output's `$status`. A step on a long thread
 * trusts its index for every step but the head (that is what saves it reading them), and a diff
 * trusts its details, so an index damaged in the middle would go unnoticed there; this is where
 * it is noticed. An unreadable index is not reported: readers already treat it as none. An
 * index is derived data: dropping it (dropDamagedChainIndexes) is the repair, and the thread's next
 * step rebuilds it.
 */
export async function findChainIndexProblems(store: Pick<Store, "objects" | "refs">): Promise<ChainIndexProblem[]> {
  const problems: ChainIndexProblem[] = [];
  for await (const threadId of store.refs.listChainIndexedThreads()) {
    const index = await store.refs.recallChainIndex(threadId, { details: true });
    if (index === null) continue;
    const disagreement = await firstDisagreement(store, index);
    if (disagreement !== null) {
      problems.push({
        threadId,
        address: disagreement.address,
        message: `thread ${threadId}'s chain index ${disagreement.message}`,
      });
    }
  }
  return problems;
}

async function firstDisagreement(
  store: Pick<Store, "objects">,
  index: ChainIndex,
): Promise<{ address: Address; message: string } | null> {
  let previous: Address | null = null;
  for (let position = 0; position < index.steps.length; position++) {
    const { address, role, details } = index.steps[position] as ChainIndex["steps"][number];
    const says = `says step ${position + 1} is ${address}`;
    const read = await readNode(store, address);
    if (typeof read === "string") return { address, message: `${says}, which ${read}` };
    const { node } = read;
    const kind = nodeKind(node);
    if (kind !== "thread-step/1") return { address, message: `${says}, which is a ${kind ?? "untyped"} node` };
    const step = node as ThreadStepNode;
    if (step.start !== index.start) {
      return { address, message: `${says}, which belongs to the thread started by ${step.start}, not ${index.start}` };
    }
    if (step.prev !== previous) {
      const expected = previous === null ? "the first step" : `the step after ${previous}`;
      return { address, message: `${says}, which is not ${expected}` };
    }
    if (step.role !== role) {
      return { address, message: `${says} with role "${role}", but that step ran role "${step.role}"` };
    }
    const wrong = details === undefined ? null : await firstWrongDetail(store, step, details);
    if (wrong !== null) return { address, message: `${says} ${wrong}` };
    previous = address;
  }
  return null;
}

/** What is wrong in a step's details, as the rest of "says step N is ADDRESS …"; null when they are its nodes'. */
async function firstWrongDetail(
  store: Pick<Store, "objects">,
  step: ThreadStepNode,
  details: ChainStepDetails,
): Promise<string | null> {
  const differs = (field: string, said: unknown, actual: unknown) =>
    `with ${field} ${JSON.stringify(said)} in its details, but that step's ${field} is ${JSON.stringify(actual)}`;
  for (const field of ["output", "body", "startedAt", "completedAt"] as const) {
    if (details[field] !== step[field]) return differs(field, details[field], step[field]);
  }
  const run = await readNode(store, step.run);
  if (typeof run === "string") return `with details that cannot be checked: its agent run ${step.run} ${run}`;
  if (nodeKind(run.node) !== "agent-run/1") return `with details that cannot be checked: ${step.run} is no agent run`;
  const { agent, usage } = run.node as AgentRunNode;
  if (details.agent !== agent) return differs("agent", details.agent, agent);
  if (canonicalizeJson(details.usage) !== canonicalizeJson(usage ?? null))
    return differs("usage", details.usage, usage);
  const output = await readNode(store, step.output);
  if (typeof output === "string") return `with details that cannot be checked: its output ${step.output} ${output}`;
  if (nodeKind(output.node) !== "output/1") return `with details that cannot be checked: ${step.output} is no output`;
  const status = (output.node as OutputNode).fields.$status;
  const actualStatus = typeof status === "string" ? status : null;
  if (details.status !== actualStatus) return differs("status", details.status, actualStatus);
  return null;
}

/** A node, or what is wrong with reading it ("is not in the store", "is corrupt"). */
async function readNode(store: Pick<Store, "objects">, address: Address): Promise<{ node: unknown } | string> {
  try {
    return { node: await store.objects.get(address) };
  } catch (error) {
    if (error instanceof NodeNotFoundError) return "is not in the store";
    if (error instanceof CorruptNodeError) return "is corrupt";
    throw error;
  }
}
