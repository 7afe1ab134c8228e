import { describe, expect, it } from "bun:test";
import type { WorkflowNode } from "@uwf/protocol";
import { InvalidWorkflowError } from "../workflow/invalid-workflow-error.ts";
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
  it("compiles every condition and every edge once", () => {
    const compiled = compileWorkflow(base);
    expect([...compiled.conditions.keys()]).toEqual(["done"]);
    expect(compiled.edges.get("writer")?.map((edge) => edge.index)).toEqual([0, 1]);
    expect(compiled.workflow).toBe(base);
  });

  it("refuses a stored workflow whose condition or template does not compile, naming each field", () => {
    const broken: WorkflowNode = {
      ...base,
      conditions: { done: { expression: "(((" } },
      graph: { ...base.graph, writer: [{ role: "writer", condition: null, status: null, prompt: "{% if %}" }] },
    };
    const error = (() => {
      try {
        compileWorkflow(broken);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InvalidWorkflowError);
    expect((error as InvalidWorkflowError).problems.map((problem) => problem.path)).toEqual([
      "conditions.done.expression",
      "graph.writer[0].prompt",
    ]);
  });
});
