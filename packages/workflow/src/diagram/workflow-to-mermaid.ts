import { END, START, type Transition, type WorkflowNode } from "@uwf/protocol";

/**
 * A Mermaid flowchart of the graph: `$START` and `$END` as circles, roles as boxes, edges
 * in file order labelled with their condition and status. Node ids are prefixed so a role
 * named `end` (a Mermaid keyword) cannot break the chart. Same workflow, same text.
 */
export function workflowToMermaid(workflow: WorkflowNode): string {
  const lines = ["flowchart TD", `  ${nodeId(START)}(("${START}"))`];
  for (const role of Object.keys(workflow.roles)) lines.push(`  ${nodeId(role)}["${escapeLabel(role)}"]`);
  lines.push(`  ${nodeId(END)}(("${END}"))`);
  for (const [from, transitions] of Object.entries(workflow.graph)) {
    for (const transition of transitions) {
      const label = edgeLabel(from, transition);
      const arrow = label === null ? "-->" : `-->|"${escapeLabel(label)}"|`;
      lines.push(`  ${nodeId(from)} ${arrow} ${nodeId(transition.role)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function nodeId(name: string): string {
  if (name === START) return "START";
  if (name === END) return "END";
  return `role_${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

/** At `$START` the status is the kind of start (`new`, `resume`); elsewhere it is the previous `$status`. */
function edgeLabel(from: string, transition: Transition): string | null {
  const parts: string[] = [];
  if (transition.status !== null) parts.push(from === START ? transition.status : `$status: ${transition.status}`);
  if (transition.condition !== null) parts.push(transition.condition);
  return parts.length === 0 ? null : parts.join(" and ");
}

function escapeLabel(text: string): string {
  return text.replaceAll('"', "#quot;");
}
