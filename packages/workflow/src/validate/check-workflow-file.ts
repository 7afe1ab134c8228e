import { normalizeWorkflowFile, type WorkflowNode, workflowFileSchema } from "@uwf/protocol";
import { isFieldPathPrefix } from "../issue/field-path.ts";
import type { WorkflowIssue } from "../issue/workflow-issue.ts";
import { recordFieldOrder } from "../schema/field-order.ts";
import { checkFanOutSyntax } from "./check-fan-out-syntax.ts";
import { findPrototypeKeys } from "./find-prototype-keys.ts";
import { fileEdgePathOf, isRecord, salvageWorkflow } from "./salvage-workflow.ts";
import { schemaIssuesToWorkflowIssues } from "./schema-issues.ts";
import { suggestFieldNames } from "./suggest-field-names.ts";
import { validateWorkflow } from "./validate-workflow.ts";

export interface CheckWorkflowFileOptions {
  /** The file name stem, when the workflow was loaded from a file: a `name` that differs is a warning. */
  expectedName?: string;
}

export interface WorkflowFileCheck {
  /** The normalised workflow, or null when there is any error. */
  workflow: WorkflowNode | null;
  issues: WorkflowIssue[];
}

const FILE_KEYS = ["name", "description", "version", "inputs", "budget", "schedule", "roles", "conditions", "graph"];

/** Schema and semantic checks of a parsed workflow file together, so one run reports every problem. */
export function checkWorkflowFile(raw: unknown, options: CheckWorkflowFileOptions = {}): WorkflowFileCheck {
  if (!isRecord(raw) || Array.isArray(raw)) {
    const message = "a workflow file is a YAML map with name, roles and graph";
    return { workflow: null, issues: [{ severity: "error", path: [], message }] };
  }
  // Before zod and the checks, which look names up in plain objects (and would crash or drop them).
  const prototypeKeys = findPrototypeKeys(raw);
  if (prototypeKeys.length > 0) return { workflow: null, issues: prototypeKeys };
  const parsed = workflowFileSchema.safeParse(raw);
  const schemaIssues = parsed.success ? [] : schemaIssuesToWorkflowIssues(parsed.error.issues);
  // zod skips the schema's unknown-key refinement when anything else failed, so it is checked here too.
  for (const key of Object.keys(raw)) {
    const reported = schemaIssues.some((issue) => issue.path.length === 1 && issue.path[0] === key);
    if (!FILE_KEYS.includes(key) && !key.startsWith("x-") && !reported) {
      schemaIssues.push({
        severity: "error",
        path: [key],
        message: `unknown field "${key}" (extension fields start with "x-")`,
      });
    }
  }
  // How each edge is written (a role or a fan-out): told apart only here, before normalising.
  schemaIssues.push(...checkFanOutSyntax(raw));
  if (options.expectedName !== undefined && typeof raw.name === "string" && raw.name !== options.expectedName) {
    // A copied and renamed file is common; it still loads, under the name it declares.
    const message = `the name "${raw.name}" differs from the file name "${options.expectedName}"; the workflow is registered as "${raw.name}"`;
    schemaIssues.push({ severity: "warning", path: ["name"], message });
  }

  const workflow = parsed.success ? normalizeWorkflowFile(parsed.data) : salvageWorkflow(raw);
  // On a salvaged workflow, keep the errors the schema did not already cover, but not the
  // warnings: "no path to $END" about a role whose edges did not parse is only noise.
  const semanticIssues = validateWorkflow(workflow, { edgePathOf: fileEdgePathOf(raw) }).filter(
    (issue) =>
      (parsed.success || issue.severity === "error") &&
      !schemaIssues.some(
        (schemaIssue) => schemaIssue.severity === "error" && isFieldPathPrefix(schemaIssue.path, issue.path),
      ),
  );
  const issues = suggestFieldNames(dedupe([...schemaIssues, ...semanticIssues]), FILE_KEYS);
  const valid = parsed.success && !issues.some((issue) => issue.severity === "error");
  return { workflow: valid ? recordFieldOrder(workflow) : null, issues };
}

function dedupe(issues: WorkflowIssue[]): WorkflowIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = JSON.stringify([issue.path, issue.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
