import { describe, expect, it } from "bun:test";
import type { WorkflowNode } from "@uwf/protocol";
import { InvalidWorkflowError } from "../errors/invalid-workflow-error.ts";
import { compileWorkflow } from "./compile-workflow.ts";

const base: WorkflowNode = {
  type: "workflow/1",
  name: "stored",
  roles: { writer: { goal: "Write." } },
  conditions: { done: { expression: "$count('writer') > 1" } },
  graph: {
    $START: [{ role: "writer", condition: null, status: null, prompt: "Go." }],
    writer: [
      { role: "$END", condition: "done", status: null, prompt: "" },
      { role: "writer", condition: null, status: null, prompt: "Again: {{ summary }}" },
    ],
  },
};

describe("compileWorkflow", () => {
  it("compiles a node's edges and a condition once, when first asked for", () => {
    const compiled = compileWorkflow(base);
    expect(compiled.workflow).toBe(base);
    const edges = compiled.edgesFrom("writer");
    expect(edges.map((edge) => edge.index)).toEqual([0, 1]);
    expect(compiled.edgesFrom("writer")).toBe(edges);
    expect(compiled.edgesFrom("nowhere")).toEqual([]);
    const done = compiled.condition("done");
    expect(done?.name).toBe("done");
    expect(compiled.condition("done")).toBe(done);
    expect(compiled.condition("toString")).toBeUndefined();
  });

  it("refuses a stored workflow's condition or template that does not compile, naming the field, when reached", () => {
    const broken: WorkflowNode = {
      ...base,
      conditions: { done: { expression: "(((" } },
      graph: { ...base.graph, writer: [{ role: "writer", condition: null, status: null, prompt: "{% if %}" }] },
    };
    const compiled = compileWorkflow(broken);
    expect(compiled.edgesFrom("$START")).toHaveLength(1);
    const pathOf = (action: () => unknown) => {
      try {
        action();
      } catch (caught) {
        expect(caught).toBeInstanceOf(InvalidWorkflowError);
        return (caught as InvalidWorkflowError).problems.map((problem) => problem.path);
      }
      throw new Error("expected an InvalidWorkflowError");
    };
    expect(pathOf(() => compiled.condition("done"))).toEqual(["conditions.done.expression"]);
    expect(pathOf(() => compiled.edgesFrom("writer"))).toEqual(["graph.writer[0].prompt"]);
  });
});
