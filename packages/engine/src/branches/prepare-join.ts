import type { Store } from "@uwf/cas";
import {
  type Address,
  addUsage,
  type BranchError,
  type BranchResult,
  type FanOutNode,
  type JoinedBranchesNode,
  type OutputNode,
  type TextNode,
  type ThreadRecord,
  type ThreadStepNode,
  type Usage,
  ZERO_USAGE,
} from "@uwf/protocol";
import { formatYaml } from "@uwf/workflow";
import { storedNodeAs } from "../history/stored-node.ts";
import { ownBranchSteps } from "./branch-steps.ts";
import { describePolicy } from "./read-fan-out.ts";

/** What a join step brings: the branches' results as stored and as its prompt and conditions see them. */
export interface PreparedJoin {
  plan: FanOutNode;
  /** The parent's step that fanned out. */
  fanOutStep: number;
  /** The `branches/1` node the join step records. */
  node: JoinedBranchesNode;
  /** `branches` in the join's Liquid prompt and its role's JSONata conditions: by key, or in item order. */
  value: unknown;
  /** Every branch's spend, added to the parent's totals by the join step. */
  usage: Usage;
  /** The results as the join role reads them, after its edge prompt. */
  section: string;
}

/** One branch as `branches` shows it to templates and conditions. */
interface BranchValue {
  key: string;
  thread: string;
  status: string;
  outcome: BranchResult["outcome"];
  output: Record<string, unknown>;
  body: string;
  error: BranchError | null;
  usage: Usage;
}

/**
 * Reads what the join needs and nothing more (flat in the branches' lengths): each branch's record and,
 * when it made a step of its own, that last step's fields and body. Branches come in declaration or
 * item order, whatever order they finished in.
 */
export async function prepareJoin(
  store: Store,
  parent: ThreadRecord,
  plan: FanOutNode,
  fanOut: { step: number; address: Address },
): Promise<PreparedJoin> {
  const links = await store.refs.listBranches(parent.id, fanOut.step);
  const results: BranchResult[] = [];
  const values: BranchValue[] = [];
  let usage = ZERO_USAGE;
  for (const link of links) {
    const record = await store.refs.getThread(link.thread);
    if (record === null) {
      const error = { code: "thread-not-found", message: `branch ${link.key}'s thread ${link.thread} was deleted` };
      results.push({
        key: link.key,
        thread: link.thread,
        status: "cancelled",
        outcome: null,
        head: fanOut.address,
        output: null,
        body: null,
        error,
        usage: ZERO_USAGE,
      });
      values.push({
        key: link.key,
        thread: link.thread,
        status: "cancelled",
        outcome: null,
        output: {},
        body: "",
        error,
        usage: ZERO_USAGE,
      });
      continue;
    }
    const last = ownBranchSteps(record) > 0 ? await lastStep(store, record.head as Address) : null;
    const error = branchError(record);
    usage = addUsage(usage, record.usage);
    results.push({
      key: link.key,
      thread: record.id,
      status: record.status,
      outcome: record.outcome ?? null,
      head: record.head as Address,
      output: last?.node.output ?? null,
      body: last?.node.body ?? null,
      error,
      usage: record.usage,
    });
    values.push({
      key: link.key,
      thread: record.id,
      status: record.status,
      outcome: record.outcome ?? null,
      output: last?.fields ?? {},
      body: last?.body ?? "",
      error,
      usage: record.usage,
    });
  }
  const value = plan.kind === "foreach" ? values : Object.fromEntries(values.map((branch) => [branch.key, branch]));
  return {
    plan,
    fanOutStep: fanOut.step,
    node: { type: "branches/1", fanOut: fanOut.address, results },
    value,
    usage,
    section: describeResults(plan, values),
  };
}

async function lastStep(store: Store, head: Address) {
  const node = storedNodeAs<ThreadStepNode>("thread-step/1", head, await store.objects.get(head));
  const [output, body] = await Promise.all([store.objects.get(node.output), store.objects.get(node.body)]);
  return {
    node,
    fields: storedNodeAs<OutputNode>("output/1", node.output, output).fields,
    body: storedNodeAs<TextNode>("text/1", node.body, body).text,
  };
}

function branchError(record: ThreadRecord): BranchError | null {
  if (record.failure !== undefined) return { code: record.failure.code, message: record.failure.message };
  if (record.status === "cancelled") return { code: "thread-cancelled", message: "the branch was cancelled" };
  return null;
}

/** The branches' results in the join role's prompt: each one's key, how it stands, its fields and its reply. */
function describeResults(plan: FanOutNode, values: readonly BranchValue[]): string {
  const lines = [`## Branch results (${values.length}, joined by policy ${describePolicy(plan.join.policy)})`];
  for (const branch of values) {
    const how = branch.outcome?.status ? `${branch.status}, $status ${branch.outcome.status}` : branch.status;
    lines.push("", `### Branch ${branch.key} (${how}; thread ${branch.thread})`);
    if (branch.error !== null) lines.push("", `Error (${branch.error.code}): ${branch.error.message}`);
    if (Object.keys(branch.output).length > 0) lines.push("", "```yaml", formatYaml(branch.output).trimEnd(), "```");
    if (branch.body.trim() !== "") lines.push("", branch.body.trim());
  }
  return lines.join("\n");
}
