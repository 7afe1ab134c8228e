import type { Transition, WorkflowNode, WorkflowProblem } from "@uwf/protocol";
import { formatFieldPath } from "../workflow/field-path.ts";
import { InvalidWorkflowError } from "../workflow/invalid-workflow-error.ts";
import { type CompiledCondition, compileCondition, describeJsonataError } from "./compile-condition.ts";
import { type EdgeTemplate, messageOf, parseEdgeTemplate } from "./edge-template.ts";

export interface CompiledEdge {
  transition: Transition;
  /** Position in the node's ordered edge list. */
  index: number;
  template: EdgeTemplate;
}

/** A workflow with every condition and edge prompt parsed once, ready for `pickNextRole`. */
export interface CompiledWorkflow {
  workflow: WorkflowNode;
  conditions: ReadonlyMap<string, CompiledCondition>;
  edges: ReadonlyMap<string, readonly CompiledEdge[]>;
}

/**
 * Compiles a workflow for the moderator. Loading already validates; this still refuses a
 * broken condition or template (say, a stored workflow written by an older uwf) with the
 * same `InvalidWorkflowError` rather than failing later inside a step.
 */
export function compileWorkflow(workflow: WorkflowNode): CompiledWorkflow {
  const problems: WorkflowProblem[] = [];
  const problem = (path: (string | number)[], message: string) =>
    problems.push({ file: workflow.name, line: null, column: null, path: formatFieldPath(path), message });

  const conditions = new Map<string, CompiledCondition>();
  for (const [name, condition] of Object.entries(workflow.conditions)) {
    try {
      conditions.set(name, compileCondition(name, condition.expression));
    } catch (error) {
      problem(["conditions", name, "expression"], `JSONata does not compile: ${describeJsonataError(error).message}`);
    }
  }

  const edges = new Map<string, CompiledEdge[]>();
  for (const [from, transitions] of Object.entries(workflow.graph)) {
    const compiled: CompiledEdge[] = [];
    transitions.forEach((transition, index) => {
      try {
        compiled.push({ transition, index, template: parseEdgeTemplate(transition.prompt) });
      } catch (error) {
        problem(["graph", from, index, "prompt"], `template does not parse: ${messageOf(error)}`);
      }
    });
    edges.set(from, compiled);
  }

  if (problems.length > 0) throw new InvalidWorkflowError(workflow.name, problems);
  return { workflow, conditions, edges };
}
