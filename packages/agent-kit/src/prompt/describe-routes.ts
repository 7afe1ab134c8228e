import { END, type WorkflowNode } from "@uwf/protocol";
import { conditionStatus, isTimeoutEdge, SUSPEND_STATUS } from "@uwf/workflow";

/**
 * Where each reply of a role leads, from the workflow's graph, as markdown list lines in the
 * order the moderator tries the edges: "`approved` → the thread ends", "`changes-requested` →
 * implementer". An edge on a condition that is not a plain `$status` test is described by the
 * condition's description (the route depends on it); an unconditional edge ends the list, since
 * no later edge can be taken. Always ends with `$SUSPEND`.
 */
export function describeRoutes(workflow: WorkflowNode, roleName: string): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const transition of workflow.graph[roleName] ?? []) {
    // Taken when nobody answers a suspension in time, never on a reply.
    if (isTimeoutEdge(transition)) continue;
    const target = describeTarget(transition.role, roleName);
    const condition = transition.condition === null ? undefined : workflow.conditions[transition.condition];
    const status =
      transition.status ??
      (condition === undefined || transition.condition === null ? null : conditionStatus(condition.expression));
    const testsOnlyStatus = transition.status === null || transition.condition === null;
    if (status !== null && testsOnlyStatus) {
      if (!seen.has(status)) lines.push(`- \`${status}\` → ${target}`);
      seen.add(status);
      continue;
    }
    if (transition.condition !== null) {
      const about = condition?.description?.trim() || condition?.expression.trim() || transition.condition;
      const statusPart = status === null ? "" : `\`${status}\` and `;
      lines.push(`- ${statusPart}when "${about}" (condition \`${transition.condition}\`) → ${target}`);
      continue;
    }
    lines.push(`- ${lines.length === 0 ? "any reply" : "any other reply"} → ${target}`);
    break;
  }
  const wait = workflow.roles[roleName]?.suspendTimeout;
  const until = wait === undefined ? "" : ` (for up to ${wait})`;
  lines.push(`- \`${SUSPEND_STATUS}\` → the thread waits for a human's answer${until}, then you act again`);
  return lines;
}

/** The routes as the paragraph the output-format section shows. */
export function formatRoutes(lines: readonly string[]): string {
  return ["Where your reply leads (the first that applies, in this order):", "", ...lines].join("\n");
}

function describeTarget(target: string, roleName: string): string {
  if (target === END) return "the thread ends";
  return target === roleName ? `${target} (you act again)` : target;
}
