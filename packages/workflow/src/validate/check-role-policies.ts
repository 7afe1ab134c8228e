import { parseDuration, type WorkflowNode } from "@uwf/protocol";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";

/** The longest wait between two launches of a role's agent (the engine caps a role's backoff there). */
const BACKOFF_CAP_MS = 60_000;

/**
 * What the schema cannot say about a role's `retries:`: a trigger listed twice is a mistake, and a
 * `backoff` over the one-minute cap would not be waited for.
 */
export function checkRolePolicies(workflow: WorkflowNode): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  for (const [name, role] of Object.entries(workflow.roles)) {
    const { retries } = role;
    if (retries === undefined) continue;
    const seen = new Set<string>();
    for (const [index, trigger] of (retries.on ?? []).entries()) {
      if (seen.has(trigger)) {
        issues.push({
          severity: "error",
          path: ["roles", name, "retries", "on", index],
          message: `"${trigger}" is listed twice`,
        });
      }
      seen.add(trigger);
    }
    const backoffMs = retries.backoff === undefined ? null : parseDuration(retries.backoff);
    if (backoffMs !== null && backoffMs > BACKOFF_CAP_MS) {
      issues.push({
        severity: "warning",
        path: ["roles", name, "retries", "backoff"],
        message: `${retries.backoff} is over the 1m cap: no wait between two attempts is longer than 1m`,
      });
    }
  }
  return issues;
}
