import { START, type WorkflowNode } from "@uwf/protocol";
import { edgeTemplateVariables, messageOf, parseEdgeTemplate } from "../moderator/edge-template.ts";
import type { EdgePathOf } from "./edge-paths.ts";
import type { WorkflowIssue } from "./workflow-issue.ts";

/** Fields every step has besides its schema's, and what `start` and `thread` hold (see renderEdgePrompt). */
const STEP_VARIABLES = ["$status", "reason", "_body", "start", "thread"];
const CONTEXT_FIELDS: Record<string, string[]> = { start: ["prompt", "workflow", "cwd"], thread: ["id"] };

/**
 * Each edge prompt must parse as Liquid and read only what its source can produce: at `$START`
 * the thread's `start` and `thread`; after a role, that role's schema properties and the step
 * variables. The same mistake would otherwise surface only when a thread reaches the edge.
 */
export function checkEdgeTemplates(workflow: WorkflowNode, edgePathOf: EdgePathOf): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  for (const [from, transitions] of Object.entries(workflow.graph)) {
    const available = availableVariables(workflow, from);
    transitions.forEach((transition, index) => {
      const path = [...edgePathOf(from, index), "prompt"];
      let variables: string[][];
      try {
        variables = edgeTemplateVariables(parseEdgeTemplate(transition.prompt));
      } catch (error) {
        issues.push({ severity: "error", path, message: `template does not parse: ${messageOf(error)}` });
        return;
      }
      if (available === null) return; // the source is not a role; reported by the graph checks
      for (const segments of variables) {
        const message = unknownVariable(segments, available, from);
        if (message !== null) issues.push({ severity: "error", path, message });
      }
    });
  }
  return dedupe(issues);
}

function availableVariables(workflow: WorkflowNode, from: string): string[] | null {
  if (from === START) return ["start", "thread"];
  const role = workflow.roles[from];
  if (role === undefined) return null;
  const properties = role.frontmatter?.properties;
  const fields = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
  return [...new Set([...fields, ...STEP_VARIABLES])];
}

function unknownVariable(segments: string[], available: string[], from: string): string | null {
  const [root, field] = segments;
  if (root === undefined) return null;
  if (!available.includes(root)) {
    const offer =
      from === START ? "at $START only start and thread exist" : `role ${from} provides ${available.join(", ")}`;
    return `unknown variable "${root}": ${offer}`;
  }
  const known = CONTEXT_FIELDS[root];
  if (known !== undefined && field !== undefined && !known.includes(field)) {
    return `unknown variable "${root}.${field}": ${root} has ${known.join(", ")}`;
  }
  return null;
}

/** A template that uses one unknown name twice needs saying once. */
function dedupe(issues: WorkflowIssue[]): WorkflowIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path.join("\u0000")}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
