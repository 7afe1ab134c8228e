import type { Store } from "@uwf/cas";
import type { JoinedBranchesNode, OutputNode, TextNode } from "@uwf/protocol";
import { storedNodeAs } from "../history/stored-node.ts";

/**
 * `branches` as a join step's prompt and conditions saw it, from its `branches/1` node: each branch's
 * status, outcome, error, usage and last reply (by key for `parallel`, in item order for `foreach`).
 */
export async function readJoinedBranches(
  store: Store,
  address: string,
  kind: "parallel" | "foreach",
): Promise<{ value: unknown; count: number; threads: Array<{ key: string; thread: string }> }> {
  const node = storedNodeAs<JoinedBranchesNode>("branches/1", address, await store.objects.get(address));
  const values = [];
  for (const result of node.results) {
    const output =
      result.output === null
        ? {}
        : storedNodeAs<OutputNode>("output/1", result.output, await store.objects.get(result.output)).fields;
    const body =
      result.body === null
        ? ""
        : storedNodeAs<TextNode>("text/1", result.body, await store.objects.get(result.body)).text;
    const { key, thread, status, outcome, error, usage } = result;
    values.push({ key, thread, status, outcome, output, body, error, usage });
  }
  const value = kind === "foreach" ? values : Object.fromEntries(values.map((branch) => [branch.key, branch]));
  const threads = node.results.map((result) => ({ key: result.key, thread: result.thread }));
  return { value, count: node.results.length, threads };
}
