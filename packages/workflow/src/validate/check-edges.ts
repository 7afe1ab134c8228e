import { END, START, SUSPEND, TIMEOUT, type WorkflowNode } from "@uwf/protocol";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";
import { listStatusBranches } from "../schema/status-branches.ts";
import { type EdgePathOf, statusPathOf } from "./edge-paths.ts";

const START_STATUSES = ["new", "resume"];

/** Each edge on its own: its target, its prompt, its condition's name and its status value. */
export function checkEdges(workflow: WorkflowNode, edgePathOf: EdgePathOf): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const error = (path: readonly (string | number)[], message: string) =>
    issues.push({ severity: "error", path, message });
  const roleNames = Object.keys(workflow.roles);
  const conditionNames = Object.keys(workflow.conditions);

  for (const [from, transitions] of Object.entries(workflow.graph)) {
    const statuses = declaredStatuses(workflow, from);
    transitions.forEach((transition, index) => {
      const path = edgePathOf(from, index);
      // On a fan-out edge, the role and prompt are its join's (checkFanOuts checks the rest).
      const at = transition.fanOut === undefined ? path : [...path, "join"];
      const target = transition.fanOut === undefined ? "an edge" : "a fan-out's join";
      if (transition.role === "") {
        // Written without a role (or a fan-out without a join): reported where the edge is read (checkFanOutSyntax).
      } else if (transition.fanOut === undefined && (transition.role === START || transition.role === SUSPEND)) {
        error([...path, "role"], `${transition.role} cannot be a target; an edge leads to a role or to $END`);
      } else if (transition.fanOut !== undefined && [START, SUSPEND, END].includes(transition.role)) {
        error(
          [...at, "role"],
          `${transition.role} cannot be a join; the join is the role that runs after the branches`,
        );
      } else if (transition.role !== END && !roleNames.includes(transition.role)) {
        error([...at, "role"], `unknown role "${transition.role}" (roles: ${listOrNone(roleNames)})`);
      }
      if (transition.role !== END && transition.role !== "" && transition.prompt.trim() === "") {
        error([...at, "prompt"], `${target} to ${transition.role} needs a prompt telling it what to do`);
      }
      // `$timeout` is a reserved condition (checkTimeoutEdges), and a status no reply sends.
      if (
        transition.condition !== null &&
        transition.condition !== TIMEOUT &&
        !conditionNames.includes(transition.condition)
      ) {
        error(
          [...path, "condition"],
          `unknown condition "${transition.condition}" (conditions: ${listOrNone(conditionNames)})`,
        );
      }
      if (transition.status === null || transition.status === TIMEOUT) return;
      if (from === START && !START_STATUSES.includes(transition.status)) {
        error(statusPathOf(path), `at $START the status is "new" or "resume", not "${transition.status}"`);
      } else if (from !== START && statuses !== null && !statuses.includes(transition.status)) {
        error(
          statusPathOf(path),
          `role ${from} never reports $status "${transition.status}" (its schema allows: ${statuses.join(", ")})`,
        );
      }
    });
  }
  return issues;
}

/** The `$status` values a role's schema (or each of its per-status branches) allows; null when it does not say. */
function declaredStatuses(workflow: WorkflowNode, from: string): string[] | null {
  const schema = workflow.roles[from]?.frontmatter;
  if (schema === undefined) return null;
  const branches = listStatusBranches(schema);
  if (branches.some((branch) => branch.statuses === null)) return null;
  return [...new Set(branches.flatMap((branch) => branch.statuses ?? []))];
}

function listOrNone(names: string[]): string {
  return names.length === 0 ? "none" : names.join(", ");
}
