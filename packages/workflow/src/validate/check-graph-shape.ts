import { END, START, TIMEOUT, type Transition, type WorkflowNode } from "@uwf/protocol";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";
import { isTimeoutEdge } from "../schema/timeout-edge.ts";
import type { EdgePathOf } from "./edge-paths.ts";

/** The graph as a whole: where it starts, which keys it may have, what can reach what. */
export function checkGraphShape(workflow: WorkflowNode, edgePathOf: EdgePathOf): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const roleNames = Object.keys(workflow.roles);
  if (workflow.graph[START] === undefined) {
    issues.push({ severity: "error", path: ["graph"], message: "no $START: add a $START entry naming the first role" });
  }
  for (const key of Object.keys(workflow.graph)) {
    if (key === END) {
      issues.push({ severity: "error", path: ["graph", END], message: "$END ends the thread and cannot have edges" });
    } else if (key !== START && !roleNames.includes(key)) {
      issues.push({ severity: "error", path: ["graph", key], message: `"${key}" is not a role, so it has no edges` });
    }
  }

  // A fan-out edge reaches its branches' roles and its join's (the edge's role).
  const reachable = reachableFrom(START, (node) =>
    (workflow.graph[node] ?? []).flatMap((edge) => [edge.role, ...branchRoles(edge)]),
  );
  const canEnd = reachableFrom(END, (node) => predecessors(workflow, node));
  const inBranches = new Set(Object.values(workflow.graph).flatMap((edges) => edges.flatMap(branchRoles)));
  for (const role of roleNames) {
    if (!reachable.has(role)) {
      issues.push({ severity: "error", path: ["roles", role], message: `role ${role} is unreachable from $START` });
    } else if (!canEnd.has(role) && !(inBranches.has(role) && (workflow.graph[role] ?? []).length === 0)) {
      // A role without edges that runs as a branch is fine: a branch ends with its one reply.
      issues.push({
        severity: "warning",
        path: ["roles", role],
        message: `role ${role} has no path to $END, so a thread that reaches it can never end`,
      });
    }
  }

  for (const [from, transitions] of Object.entries(workflow.graph)) {
    transitions.forEach((transition, index) => {
      const hidden = transitions.slice(index + 1).filter((later) => shadows(from, transition, later));
      if (hidden.length === 0) return;
      issues.push({
        severity: "warning",
        path: edgePathOf(from, index),
        message: `this edge always holds, so the later edge${hidden.length === 1 ? "" : "s"} to ${hidden.map((edge) => edge.role).join(", ")} will never be taken`,
      });
    });
  }

  const used = new Set(
    Object.values(workflow.graph).flatMap((transitions) => transitions.map((edge) => edge.condition)),
  );
  for (const name of Object.keys(workflow.conditions)) {
    if (!used.has(name)) {
      issues.push({
        severity: "warning",
        path: ["conditions", name],
        message: `condition ${name} is not used by any edge`,
      });
    }
  }
  return issues;
}

/**
 * An edge without a condition holds whenever its status does, so it hides every later edge
 * whose status it covers. At `$START` no status means `new`, and `resume` edges stand apart.
 * `$timeout` edges stand apart too: one with no condition of its own always holds for a timeout step, and only for it.
 */
function shadows(from: string, earlier: Transition, later: Transition): boolean {
  if (isTimeoutEdge(earlier) || isTimeoutEdge(later)) {
    const always = earlier.condition === null || earlier.condition === TIMEOUT;
    return isTimeoutEdge(earlier) && isTimeoutEdge(later) && always;
  }
  if (earlier.condition !== null) return false;
  const normalise = (status: string | null) => (from === START && status === null ? "new" : status);
  const earlierStatus = normalise(earlier.status);
  return earlierStatus === null || earlierStatus === normalise(later.status);
}

/** The roles a fan-out edge's `role:` branches run (none for other edges, or for `workflow:` branches). */
function branchRoles(edge: Transition): string[] {
  const fanOut = edge.fanOut;
  if (fanOut === undefined) return [];
  const targets = [
    ...Object.values(fanOut.parallel ?? {}),
    ...(fanOut.foreach === null ? [] : [fanOut.foreach.branch]),
  ];
  return targets.flatMap((target) => (target.role === undefined ? [] : [target.role]));
}

function predecessors(workflow: WorkflowNode, node: string): string[] {
  return Object.entries(workflow.graph)
    .filter(([, transitions]) => transitions.some((edge) => edge.role === node))
    .map(([from]) => from);
}

function reachableFrom(origin: string, next: (node: string) => string[]): Set<string> {
  const seen = new Set<string>([origin]);
  const queue = [origin];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const neighbour of next(node)) {
      if (seen.has(neighbour)) continue;
      seen.add(neighbour);
      queue.push(neighbour);
    }
  }
  return seen;
}
