import type { FieldPath } from "../issue/field-path.ts";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";
import { isRecord } from "./salvage-workflow.ts";

/** The keys that only a fan-out edge has. */
const FAN_OUT_ONLY = ["as", "branch", "maxConcurrent", "onCancel", "join"] as const;

/**
 * How each edge as written is shaped (DESIGN31 "Workflow syntax"): to a `role`, or a fan-out with
 * `parallel:` or `foreach:` (and `branch:`) and a `join:`. This reads the file as written: the
 * normalised edge keeps only the join's role, so an edge with both `role` and a fan-out, or a stray
 * `branch:`, can no longer be told apart there. In both graph styles, reported with the edge's path.
 */
export function checkFanOutSyntax(raw: Record<string, unknown>): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const graph = isRecord(raw.graph) && !Array.isArray(raw.graph) ? raw.graph : {};
  for (const [from, edges] of Object.entries(graph)) {
    if (Array.isArray(edges)) {
      edges.forEach((edge, index) => {
        checkEdge(edge, ["graph", from, index], issues);
      });
    } else if (isRecord(edges)) {
      for (const [status, edge] of Object.entries(edges)) checkEdge(edge, ["graph", from, status], issues);
    }
  }
  return issues;
}

function checkEdge(edge: unknown, path: FieldPath, issues: WorkflowIssue[]): void {
  if (!isRecord(edge) || Array.isArray(edge)) return; // the schema reports it
  const error = (at: FieldPath, message: string, pointAt?: "key") =>
    issues.push({ severity: "error", path: at, message, ...(pointAt === undefined ? {} : { pointAt }) });
  const has = (key: string) => Object.hasOwn(edge, key);
  const fansOut = has("parallel") || has("foreach");

  if (!fansOut) {
    if (!has("role")) {
      error(
        [...path, "role"],
        "missing required field: an edge leads to a role, or fans out with parallel: or foreach: and a join:",
      );
    }
    for (const key of FAN_OUT_ONLY) {
      if (!has(key)) continue;
      const hint = key === "branch" || key === "as" ? "foreach:" : "parallel: or foreach:";
      error([...path, key], `${key}: belongs to a fan-out; this edge has no ${hint}`, "key");
    }
    return;
  }
  if (has("role")) {
    error(
      [...path, "role"],
      "an edge leads to a role or fans out, not both: the role that runs after the branches goes under join: { role }",
      "key",
    );
  }
  if (has("parallel") && has("foreach")) {
    error([...path, "foreach"], "a fan-out has parallel: (named branches) or foreach: (one per item), not both", "key");
  }
  if (!has("join")) {
    error([...path, "join"], "a fan-out needs join: { role, prompt }, the role that runs once its branches end");
  }
  if (has("foreach") && !has("branch")) {
    error(
      [...path, "branch"],
      "foreach: needs branch: what runs for each item ({ role, prompt } or { workflow, inputs })",
    );
  }
  if (!has("foreach")) {
    if (has("branch")) {
      error([...path, "branch"], "branch: goes with foreach:; named branches are written under parallel:", "key");
    }
    if (has("as")) error([...path, "as"], "as: names foreach:'s item; this fan-out has no foreach:", "key");
  }
}
