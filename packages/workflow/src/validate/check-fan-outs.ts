import { type BranchTarget, END, type FanOut, NAME_PATTERN, START, SUSPEND, type WorkflowNode } from "@uwf/protocol";
import type { FieldPath } from "../issue/field-path.ts";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";
import { compileCondition, describeJsonataError } from "../moderator/compile-condition.ts";
import type { EdgePathOf } from "./edge-paths.ts";

const NAME_RULE = 'names are letters, digits, "_" and "-", starting with a letter or "_"';
/** What a `foreach` item cannot be called: the names its branch templates already read. */
const TAKEN_ITEM_NAMES = ["start", "thread", "inputs", "index", "branches", "_body"];

/**
 * Each fan-out edge's branches and join (DESIGN31 "Workflow syntax"), on the normalised workflow:
 * branch names, what each branch runs and its prompt, the `foreach` expression (compiled as
 * conditions are) and its item's name, and whether the join's policy can be met. The join's role
 * and prompt are the edge's own (checkEdges); templates are checked with every other (checkEdgeTemplates).
 * A `workflow:` branch names a registry workflow, which is not known here, so it is not checked.
 */
export function checkFanOuts(workflow: WorkflowNode, edgePathOf: EdgePathOf): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const roleNames = Object.keys(workflow.roles);
  for (const [from, transitions] of Object.entries(workflow.graph)) {
    transitions.forEach((transition, index) => {
      const fanOut = transition.fanOut;
      if (fanOut === undefined) return;
      const path = edgePathOf(from, index);
      if (from === START) {
        issues.push({
          severity: "error",
          path,
          message: "$START cannot fan out: a thread starts with one role; fan out from that role's reply",
        });
      }
      issues.push(...checkFanOut(fanOut, path, roleNames));
    });
  }
  return issues;
}

function checkFanOut(fanOut: FanOut, path: FieldPath, roleNames: string[]): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const error = (at: FieldPath, message: string, pointAt?: "key") =>
    issues.push({ severity: "error", path: at, message, ...(pointAt === undefined ? {} : { pointAt }) });

  if (fanOut.parallel !== null && fanOut.foreach !== null) return issues; // checkFanOutSyntax says which to keep
  if (fanOut.parallel !== null) {
    const entries = Object.entries(fanOut.parallel);
    if (entries.length === 0) error([...path, "parallel"], "parallel: needs at least one named branch");
    for (const [key, branch] of entries) {
      const at = [...path, "parallel", key];
      if (!NAME_PATTERN.test(key)) error(at, `"${key}" is not a valid branch name: ${NAME_RULE}`, "key");
      issues.push(...checkBranch(branch, at, roleNames));
    }
    const policy = fanOut.policy;
    if (typeof policy === "object" && policy.quorum > entries.length && entries.length > 0) {
      error(
        [...path, "join", "policy", "quorum"],
        `a quorum of ${policy.quorum} can never be met by ${entries.length} parallel branch${entries.length === 1 ? "" : "es"}`,
      );
    }
  }
  if (fanOut.foreach !== null) {
    const { expression, as, branch } = fanOut.foreach;
    if (expression.trim() !== "") {
      try {
        compileCondition("foreach", expression).jsonata();
      } catch (thrown) {
        const { message, position } = describeJsonataError(thrown);
        const where = position === null ? "" : ` (at character ${position})`;
        error([...path, "foreach"], `JSONata does not compile: ${message}${where}`);
      }
    }
    if (!NAME_PATTERN.test(as)) error([...path, "as"], `"${as}" is not a valid name for the item: ${NAME_RULE}`);
    else if (TAKEN_ITEM_NAMES.includes(as)) {
      error([...path, "as"], `"${as}" cannot name the item: branch templates read ${as} as it is everywhere else`);
    }
    issues.push(...checkBranch(branch, [...path, "branch"], roleNames));
  }
  if (fanOut.failFast && fanOut.policy !== "all") {
    issues.push({
      severity: "warning",
      path: [...path, "join", "failFast"],
      message: `failFast only changes policy all (a failed branch fails the join at once); with ${describePolicy(fanOut.policy)} it is ignored`,
    });
  }
  return issues;
}

/** A branch runs one step of a role of this workflow, or a workflow; a role's step needs a prompt. */
function checkBranch(branch: BranchTarget, path: FieldPath, roleNames: string[]): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const error = (at: FieldPath, message: string) => issues.push({ severity: "error", path: at, message });
  if (branch.role !== undefined && branch.workflow !== undefined) {
    error([...path, "workflow"], "a branch runs a role (role:) or a workflow (workflow:), not both");
    return issues;
  }
  if (branch.role === undefined && branch.workflow === undefined) {
    error(
      path,
      "a branch needs role: (one step of a role of this workflow) or workflow: (a registry workflow, run to its end)",
    );
    return issues;
  }
  if (branch.role === undefined) return issues;
  if ([START, END, SUSPEND].includes(branch.role)) {
    error([...path, "role"], `${branch.role} cannot be a branch; a branch is one step of a role of this workflow`);
  } else if (!roleNames.includes(branch.role)) {
    error([...path, "role"], `unknown role "${branch.role}" (roles: ${roleNames.join(", ") || "none"})`);
  }
  if ((branch.prompt ?? "").trim() === "") {
    error([...path, "prompt"], `a branch to ${branch.role} needs a prompt telling it what to do`);
  }
  if (branch.inputs !== undefined) {
    error([...path, "inputs"], "inputs: go to a workflow: branch; a role: branch is told what to do by its prompt");
  }
  return issues;
}

function describePolicy(policy: FanOut["policy"]): string {
  return typeof policy === "string" ? `policy ${policy}` : `quorum ${policy.quorum}`;
}
