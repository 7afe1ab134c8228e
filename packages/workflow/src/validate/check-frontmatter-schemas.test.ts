import { describe, expect, it } from "bun:test";
import type { WorkflowNode } from "@uwf/protocol";
import { checkFrontmatterSchemas } from "./check-frontmatter-schemas.ts";

function workflowWithEnum(values: unknown[]): WorkflowNode {
  return {
    type: "workflow/1",
    name: "w",
    roles: {
      writer: {
        goal: "Pick one.",
        frontmatter: { type: "object", properties: { pick: { enum: values } }, required: ["pick"] },
      },
    },
    conditions: {},
    graph: {},
  };
}

describe("checkFrontmatterSchemas", () => {
  it("checks a 40,000-value enum in linear time, not by comparing every pair", () => {
    // Pairwise, as Ajv's own uniqueItems does for an array of any values, this took over 15 s.
    const values = Array.from({ length: 40_000 }, (_, index) => (index % 2 === 0 ? `v${index}` : { v: index }));
    const started = performance.now();
    expect(checkFrontmatterSchemas(workflowWithEnum(values))).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("reports two equal values of an enum, objects compared by value whatever their key order", () => {
    expect(checkFrontmatterSchemas(workflowWithEnum(["a", { x: 1, y: [2] }, "b", { y: [2], x: 1 }]))).toEqual([
      {
        severity: "error",
        path: ["roles", "writer", "frontmatter", "properties", "pick", "enum"],
        message: "invalid JSON Schema: must NOT have duplicate items (items ## 1 and 3 are identical)",
      },
    ]);
  });

  it('tells 1 from "1" and [1] from {"0": 1}', () => {
    expect(checkFrontmatterSchemas(workflowWithEnum([1, "1", [1], { 0: 1 }]))).toEqual([]);
  });

  it("checks a role's ask and answer schemas as it checks frontmatter, and takes answer: approval", () => {
    const workflow: WorkflowNode = {
      type: "workflow/1",
      name: "w",
      roles: {
        gate: {
          goal: "Ask.",
          ask: { type: "object", properties: { question: { type: "string" } }, requried: ["question"] },
          answer: { type: "array" },
        },
        approver: { goal: "Ask.", ask: { type: "object" }, answer: "approval" },
      },
      conditions: {},
      graph: {},
    };
    expect(checkFrontmatterSchemas(workflow)).toEqual([
      {
        severity: "error",
        path: ["roles", "gate", "ask", "requried"],
        message: 'invalid JSON Schema: strict mode: unknown keyword: "requried"',
      },
      {
        severity: "error",
        path: ["roles", "gate", "answer", "type"],
        message: 'an answer is named fields, so the type is "object"',
      },
    ]);
  });
});
