import type { WorkflowNode } from "@uwf/protocol";
import { EdgePromptError } from "../errors/edge-prompt-error.ts";
import { type CompiledWorkflow, compileWorkflow } from "./compile-workflow.ts";
import type { ModeratorHistory } from "./moderator-history.ts";
import { renderEdgePrompt } from "./render-edge-prompt.ts";

export type RenderJoinPromptOptions = ({ compiled: CompiledWorkflow } | { workflow: WorkflowNode }) & {
  /** The role whose reply fanned out (the parent's newest step). */
  from: string;
  /** The fan-out edge's index among `from`'s edges (the `fan-out/1` node's `edge`). */
  edge: number;
  /** The parent's history, its newest step the one that fanned out. */
  history: ModeratorHistory;
  /** The branches' results: an object by key for `parallel`, a list in item order for `foreach`. */
  branches: unknown;
};

/**
 * The join's prompt (the fan-out edge's `join.prompt`), rendered as an edge prompt with `branches` in
 * its context, trimmed. An edge that is not there or not a fan-out, an undefined variable, or an
 * empty result is an EdgePromptError.
 */
export async function renderJoinPrompt(options: RenderJoinPromptOptions): Promise<string> {
  const compiled = "compiled" in options ? options.compiled : compileWorkflow(options.workflow);
  const { from, edge, history, branches } = options;
  const compiledEdge = compiled.edgesFrom(from)[edge];
  if (compiledEdge === undefined || compiledEdge.transition.fanOut === undefined) {
    const what = compiledEdge === undefined ? "has no edge" : "has no fan-out at edge";
    throw new EdgePromptError(from, "its join", `cannot be rendered: role ${from} ${what} ${edge}`);
  }
  return renderEdgePrompt({
    template: compiledEdge.template,
    from,
    to: compiledEdge.transition.role,
    history: { ...history, branches },
    workflow: compiled.workflow,
  });
}
