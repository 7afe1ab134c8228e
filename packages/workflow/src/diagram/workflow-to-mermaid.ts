import {
  type BranchTarget,
  END,
  type FanOut,
  parallelBranches,
  START,
  TIMEOUT,
  type Transition,
  type WorkflowNode,
} from "@uwf/protocol";
import { isTimeoutEdge } from "../schema/timeout-edge.ts";

/**
 * A Mermaid flowchart of the graph: `$START` and `$END` as circles, roles as boxes, edges
 * in file order labelled with their condition and status. Node ids are prefixed so a role
 * named `end` (a Mermaid keyword) cannot break the chart. Same workflow, same text. A fan-out
 * edge leads to a fork node (a hexagon: `parallel`, or `foreach EXPRESSION as NAME`), from it to
 * each branch, labelled with its key (`each NAME` for foreach): a `role:` branch to its role's box, a
 * `workflow:` branch to a subroutine box naming the workflow; from each branch a dotted arrow to
 * the join role, labelled with the join's policy. A `$timeout` edge (taken when a suspension waits past
 * its role's `suspendTimeout`) is dashed, labelled `$timeout after DURATION`.
 */
export function workflowToMermaid(workflow: WorkflowNode): string {
  const lines = ["flowchart TD", `  ${nodeId(START)}(("${START}"))`];
  for (const role of Object.keys(workflow.roles)) lines.push(`  ${nodeId(role)}["${escapeLabel(role)}"]`);
  lines.push(`  ${nodeId(END)}(("${END}"))`);
  for (const [from, transitions] of Object.entries(workflow.graph)) {
    transitions.forEach((transition, index) => {
      const timeout = isTimeoutEdge(transition);
      const label = timeout ? timeoutLabel(workflow, from) : edgeLabel(from, transition);
      const link = timeout ? "-.->" : "-->";
      const arrow = label === null ? link : `${link}|"${escapeLabel(label)}"|`;
      if (transition.fanOut === undefined) lines.push(`  ${nodeId(from)} ${arrow} ${nodeId(transition.role)}`);
      else lines.push(...fanOutLines(from, index, arrow, transition.role, transition.fanOut));
    });
  }
  return `${lines.join("\n")}\n`;
}

function fanOutLines(from: string, index: number, arrow: string, join: string, fanOut: FanOut): string[] {
  const fork = `fork_${safeId(from)}_${index}`;
  const forkLabel =
    fanOut.foreach === null ? "parallel" : `foreach ${fanOut.foreach.expression} as ${fanOut.foreach.as}`;
  const lines = [`  ${nodeId(from)} ${arrow} ${fork}{{"${escapeLabel(forkLabel)}"}}`];
  const branches: [string, string, BranchTarget][] =
    fanOut.foreach === null
      ? parallelBranches(fanOut).map(([key, target]) => [safeId(key), key, target])
      : [["each", `each ${fanOut.foreach.as}`, fanOut.foreach.branch]];
  // Each branch target once to the join, dotted: a branch ends with its reply, the role's own edges are not taken.
  const joined = new Set<string>();
  for (const [id, name, target] of branches) {
    let node: string;
    if (target.workflow !== undefined) {
      node = `branch_${safeId(from)}_${index}_${id}`;
      lines.push(`  ${fork} -->|"${escapeLabel(name)}"| ${node}[["${escapeLabel(`workflow ${target.workflow}`)}"]]`);
    } else {
      node = nodeId(target.role ?? "");
      lines.push(`  ${fork} -->|"${escapeLabel(name)}"| ${node}`);
    }
    if (joined.has(node)) continue;
    joined.add(node);
    lines.push(`  ${node} -.->|"${escapeLabel(policyLabel(fanOut))}"| ${nodeId(join)}`);
  }
  return lines;
}

/** The join's policy as written: `all`, `all-settled`, `any`, `quorum 2`, and `failFast` when set. */
function policyLabel(fanOut: FanOut): string {
  const policy = typeof fanOut.policy === "string" ? fanOut.policy : `quorum ${fanOut.policy.quorum}`;
  return fanOut.failFast ? `${policy}, failFast` : policy;
}

function safeId(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

function nodeId(name: string): string {
  if (name === START) return "START";
  if (name === END) return "END";
  return `role_${safeId(name)}`;
}

/** At `$START` the status is the kind of start (`new`, `resume`); elsewhere it is the previous `$status`. */
function edgeLabel(from: string, transition: Transition): string | null {
  const parts: string[] = [];
  if (transition.status !== null) parts.push(from === START ? transition.status : `$status: ${transition.status}`);
  if (transition.condition !== null) parts.push(transition.condition);
  return parts.length === 0 ? null : parts.join(" and ");
}

/** What a `$timeout` edge waits for: `$timeout after 24h`. */
function timeoutLabel(workflow: WorkflowNode, from: string): string {
  const after = workflow.roles[from]?.suspendTimeout;
  return after === undefined ? TIMEOUT : `${TIMEOUT} after ${after}`;
}

function escapeLabel(text: string): string {
  return text.replaceAll('"', "#quot;");
}
