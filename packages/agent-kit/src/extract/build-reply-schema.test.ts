import { describe, expect, it } from "bun:test";
import type { WorkflowNode } from "@uwf/protocol";
import { buildReplySchema, listRoleStatuses, withStatusFields } from "@uwf/workflow";
import { extractFrontmatter } from "./extract-frontmatter.ts";

const workflow: WorkflowNode = {
  type: "workflow/1",
  name: "review",
  roles: {
    writer: {
      goal: "Write.",
      frontmatter: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] },
    },
    reviewer: { goal: "Review.", frontmatter: { type: "object", properties: { comments: { type: "string" } } } },
    checker: { goal: "Check." },
  },
  conditions: { always: { expression: "true" } },
  graph: {
    $START: [{ role: "writer", condition: null, status: null, prompt: "Write." }],
    writer: [{ role: "reviewer", condition: null, status: null, prompt: "Review." }],
    reviewer: [
      { role: "writer", condition: null, status: "rejected", prompt: "Fix." },
      { role: "checker", condition: null, status: "approved", prompt: "Check." },
    ],
    checker: [
      { role: "$END", condition: null, status: "pass", prompt: "Done." },
      { role: "writer", condition: "always", status: null, prompt: "Fix." },
    ],
  },
};

describe("listRoleStatuses", () => {
  it("lists the statuses of map-form edges and requires one when every edge tests it", () => {
    expect(listRoleStatuses(workflow, "reviewer")).toEqual({ values: ["rejected", "approved"], required: true });
  });

  it("does not require a status when another edge can hold without one", () => {
    expect(listRoleStatuses(workflow, "checker")).toEqual({ values: ["pass"], required: false });
    expect(listRoleStatuses(workflow, "writer")).toEqual({ values: [], required: false });
  });
});

describe("buildReplySchema", () => {
  it("requires $status with the role's values when the workflow routes on it", () => {
    const schema = buildReplySchema(workflow, "reviewer");
    expect(schema.required).toEqual(["$status"]);
    expect(extractFrontmatter("---\n$status: approved\n---\n", schema).fields).toEqual({ $status: "approved" });
    expect(() => extractFrontmatter("---\n$status: ok\n---\n", schema)).toThrow(
      'field "$status": expected one of "rejected", "approved", "$SUSPEND", got string "ok"',
    );
    expect(() => extractFrontmatter("---\ncomments: hm\n---\n", schema)).toThrow('missing required field "$status"');
  });

  it("keeps the role's own required fields", () => {
    expect(buildReplySchema(workflow, "writer").required).toEqual(["summary"]);
  });

  it("leaves $status free when an edge does not test it", () => {
    expect(extractFrontmatter("---\n$status: anything\n---\n", buildReplySchema(workflow, "checker")).fields).toEqual({
      $status: "anything",
    });
  });
});

describe("withStatusFields", () => {
  it("does not replace a $status or reason the role declares itself", () => {
    const own = { type: "string", enum: ["a"] };
    const schema = withStatusFields({ properties: { $status: own, reason: { type: "integer" } } });
    expect((schema.properties as Record<string, unknown>).$status).toBe(own);
    expect((schema.properties as Record<string, unknown>).reason).toEqual({ type: "integer" });
  });
});
