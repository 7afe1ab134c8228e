import { describe, expect, it } from "bun:test";
import type { WorkflowNode } from "@uwf/protocol";
import { marksFromSteps } from "../src/frontend/components/graph-marks.ts";

/** routing.yaml as `workflow show` returns it: list edges with a condition, a `$status`-keyed map. */
const ROUTING: WorkflowNode = {
  type: "workflow/1",
  name: "routing",
  roles: { worker: { goal: "Work." }, reviewer: { goal: "Review." } },
  conditions: { gave_up: { description: "gave up", expression: "steps[-1].output.gaveUp = true" } },
  graph: {
    $START: [{ role: "worker", condition: null, status: null, prompt: "Do the task." }],
    worker: [
      { role: "reviewer", condition: null, status: "approved", prompt: "Review." },
      { role: "worker", condition: null, status: "rejected", prompt: "Try again." },
      { role: "$END", condition: "gave_up", status: null, prompt: "Stopped." },
    ],
    reviewer: [
      { role: "worker", condition: null, status: "changes", prompt: "Fix." },
      { role: "$END", condition: null, status: "done", prompt: "Done." },
    ],
  },
} as WorkflowNode;

const step = (role: string, status: string | null) => ({ role, status });
const idle = { running: null, endEdge: null };

describe("marksFromSteps", () => {
  it("counts visits and edges by the step's $status, and the edge into the next role", () => {
    const marks = marksFromSteps(
      ROUTING,
      [step("worker", "rejected"), step("worker", "approved"), step("reviewer", "changes"), step("worker", "approved")],
      { ...idle, status: "active", next: "reviewer" },
    );
    expect(marks.current).toBe("reviewer");
    expect(marks.running).toBe(false);
    expect(Object.fromEntries(marks.visits)).toEqual({ worker: 3, reviewer: 1 });
    expect(Object.fromEntries(marks.edges)).toEqual({
      "$START#0": 1,
      "worker#1": 1,
      "worker#0": 2,
      "reviewer#0": 1,
    });
  });

  it("takes the outcome's edge to $END once ended, and stands at the last role", () => {
    const marks = marksFromSteps(ROUTING, [step("worker", null)], {
      status: "ended",
      next: "$END",
      endEdge: 2,
      running: null,
    });
    expect(marks.current).toBe("worker");
    expect(marks.edges.get("worker#2")).toBe(1);
    expect(marks.edges.get("worker#0")).toBeUndefined();
  });

  it("marks no edge for a role that suspended to ask and runs again", () => {
    const marks = marksFromSteps(ROUTING, [step("worker", "$SUSPEND")], {
      ...idle,
      status: "suspended",
      next: "worker",
    });
    expect(marks.current).toBe("worker");
    expect(Object.fromEntries(marks.edges)).toEqual({ "$START#0": 1 });
  });

  it("stands at the first role before any step, and at a running role while it runs", () => {
    const fresh = marksFromSteps(ROUTING, [], { ...idle, status: "active", next: "worker" });
    expect(fresh.current).toBe("worker");
    expect(fresh.visits.size).toBe(0);
    const running = marksFromSteps(ROUTING, [step("worker", "approved")], {
      status: "active",
      next: "reviewer",
      endEdge: null,
      running: "reviewer",
    });
    expect(running.current).toBe("reviewer");
    expect(running.running).toBe(true);
  });

  it("leaves a $START keyed by new and resume by its new edge", () => {
    const reopen = {
      ...ROUTING,
      graph: {
        ...ROUTING.graph,
        $START: [
          { role: "worker", condition: null, status: "resume", prompt: "Continue." },
          { role: "worker", condition: null, status: "new", prompt: "Do the task." },
        ],
      },
    } as WorkflowNode;
    const marks = marksFromSteps(reopen, [step("worker", "approved")], { ...idle, status: "active", next: "reviewer" });
    expect(marks.edges.get("$START#1")).toBe(1);
    expect(marks.edges.get("$START#0")).toBeUndefined();
  });
});
