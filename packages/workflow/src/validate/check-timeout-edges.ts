import { START, TIMEOUT, type WorkflowNode } from "@uwf/protocol";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";
import { isTimeoutEdge } from "../schema/timeout-edge.ts";
import { type EdgePathOf, statusPathOf } from "./edge-paths.ts";

/**
 * `$timeout` edges (a map key `$timeout`, or `condition: $timeout` in a list) are taken when a
 * suspension of their role waits past its `suspendTimeout`: they may leave only a role that has one,
 * and a list edge that tests `$timeout` tests nothing else.
 */
export function checkTimeoutEdges(workflow: WorkflowNode, edgePathOf: EdgePathOf): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  for (const [from, transitions] of Object.entries(workflow.graph)) {
    transitions.forEach((transition, index) => {
      if (!isTimeoutEdge(transition)) return;
      const path = edgePathOf(from, index);
      if (from === START) {
        issues.push({
          severity: "error",
          path,
          message: `${START} has no ${TIMEOUT} edge: only a role that waits for an answer (suspendTimeout) times out`,
        });
        return;
      }
      if (workflow.roles[from] !== undefined && workflow.roles[from].suspendTimeout === undefined) {
        issues.push({
          severity: "error",
          path,
          message: `a ${TIMEOUT} edge is taken when role ${from}'s suspension waits past its suspendTimeout, and role ${from} has none: add suspendTimeout (e.g. 24h) to it`,
        });
      }
      if (transition.condition === TIMEOUT && transition.status !== null && transition.status !== TIMEOUT) {
        issues.push({
          severity: "error",
          path: statusPathOf(path),
          message: `an edge with condition ${TIMEOUT} follows the timeout step, whose $status is "${TIMEOUT}", never "${transition.status}": drop the status`,
        });
      }
    });
  }
  return issues;
}
