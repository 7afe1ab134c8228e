import { describe, expect, it } from "bun:test";
import type { WorkflowNode } from "@uwf/protocol";
import { buildContinuationPrompt } from "./build-continuation-prompt.ts";
import { describeRoutes } from "./describe-routes.ts";

const edge = (role: string, status: string | null, condition: string | null = null) => ({
  role,
  status,
  condition,
  prompt: "Go.",
});

const workflow: WorkflowNode = {
  type: "workflow/1",
  name: "ship",
  roles: {
    implementer: { goal: "Build." },
    reviewer: { goal: "Review." },
    tester: { goal: "Test." },
  },
  conditions: {
    failing: { expression: 'steps[-1].output.`$status` = "fail"' },
    flaky: { description: "The tests failed three times in a row", expression: '$count("tester") > 3' },
  },
  graph: {
    $START: [edge("implementer", null)],
    implementer: [edge("reviewer", null)],
    reviewer: [edge("$END", "approved"), edge("implementer", "changes-requested"), edge("reviewer", "unsure")],
    tester: [edge("implementer", null, "failing"), edge("$END", null, "flaky"), edge("tester", null)],
  },
};

describe("describeRoutes", () => {
  it("says where each $status leads, derived from the graph", () => {
    expect(describeRoutes(workflow, "reviewer")).toEqual([
      "- `approved` → the thread ends",
      "- `changes-requested` → implementer",
      "- `unsure` → reviewer (you act again)",
      "- `$SUSPEND` → the thread waits for a human's answer, then you act again",
    ]);
  });

  it("reads a condition that only tests $status as that status, and names any other by its description", () => {
    expect(describeRoutes(workflow, "tester")).toEqual([
      "- `fail` → implementer",
      '- when "The tests failed three times in a row" (condition `flaky`) → the thread ends',
      "- any other reply → tester (you act again)",
      "- `$SUSPEND` → the thread waits for a human's answer, then you act again",
    ]);
    expect(describeRoutes(workflow, "implementer")[0]).toBe("- any reply → reviewer");
  });

  it("leaves $timeout edges out and says how long a suspension waits", () => {
    const waiting: WorkflowNode = {
      ...workflow,
      roles: { ...workflow.roles, reviewer: { goal: "Review.", suspendTimeout: "24h" } },
      graph: { ...workflow.graph, reviewer: [edge("implementer", "$timeout"), edge("$END", "approved")] },
    };
    expect(describeRoutes(waiting, "reviewer")).toEqual([
      "- `approved` → the thread ends",
      "- `$SUSPEND` → the thread waits for a human's answer (for up to 24h), then you act again",
    ]);
  });

  it("puts the route lines in the prompt's status part", () => {
    const prompt = buildContinuationPrompt({
      workflow,
      roleName: "reviewer",
      task: "T",
      history: [],
      edgePrompt: "R.",
    });
    expect(prompt).toContain(
      "Where your reply leads (the first that applies, in this order):\n\n- `approved` → the thread ends\n- `changes-requested` → implementer\n",
    );
    expect(prompt.indexOf("Where your reply leads")).toBeLessThan(prompt.indexOf("## Example"));
  });
});
