import type { Transition, WorkflowNode } from "@uwf/protocol";
import { InvalidWorkflowError } from "../errors/invalid-workflow-error.ts";
import { formatFieldPath } from "../issue/field-path.ts";
import { type CompiledCondition, compileCondition, describeJsonataError } from "./compile-condition.ts";
import { type EdgeTemplate, safeParseEdgeTemplate } from "./edge-template.ts";
import { isPlainSubstitution } from "./plain-substitution.ts";

export interface CompiledEdge {
  transition: Transition;
  /** Position in the node's ordered edge list. */
  index: number;
  /** The parsed Liquid template, or the source itself when it only outputs plain variables. */
  template: EdgeTemplate | string;
}

/** A workflow ready for `pickNextRole`: each node's edge prompts and each condition are parsed once, when first needed. */
export interface CompiledWorkflow {
  workflow: WorkflowNode;
  /** The ordered edges leaving `from`; throws InvalidWorkflowError when one of their templates does not parse. */
  edgesFrom(from: string): readonly CompiledEdge[];
  /** A condition by name, undefined when the workflow has none of that name; throws InvalidWorkflowError when it does not compile. */
  condition(name: string): CompiledCondition | undefined;
}

/**
 * Prepares a workflow for the moderator. Compiling lazily matters because every step is a new
 * process that reaches one node: it should not pay for parsing every template of the graph, nor
 * load JSONata when the edges it tries have no condition. Loading a workflow file validates all of
 * it; a stored workflow that is broken anyway (say, written by an older uwf) is refused with the
 * same InvalidWorkflowError, naming the field, when the step reaches it.
 */
export function compileWorkflow(workflow: WorkflowNode): CompiledWorkflow {
  const edges = new Map<string, CompiledEdge[]>();
  const conditions = new Map<string, CompiledCondition>();
  const refuse = (path: (string | number)[], message: string): never => {
    throw new InvalidWorkflowError(workflow.name, [
      { file: workflow.name, line: null, column: null, path: formatFieldPath(path), message },
    ]);
  };
  return {
    workflow,
    edgesFrom(from) {
      const cached = edges.get(from);
      if (cached !== undefined) return cached;
      const compiled = (workflow.graph[from] ?? []).map((transition, index) => {
        const source = transition.prompt;
        if (isPlainSubstitution(source)) return { transition, index, template: source };
        const parsed = safeParseEdgeTemplate(source);
        if (!parsed.success)
          return refuse(["graph", from, index, "prompt"], `template does not parse: ${parsed.problem}`);
        return { transition, index, template: parsed.value };
      });
      edges.set(from, compiled);
      return compiled;
    },
    condition(name) {
      const cached = conditions.get(name);
      if (cached !== undefined) return cached;
      const source = workflow.conditions[name];
      if (source === undefined || !Object.hasOwn(workflow.conditions, name)) return undefined;
      try {
        const compiled = compileCondition(name, source.expression);
        conditions.set(name, compiled);
        return compiled;
      } catch (error) {
        return refuse(
          ["conditions", name, "expression"],
          `JSONata does not compile: ${describeJsonataError(error).message}`,
        );
      }
    },
  };
}
