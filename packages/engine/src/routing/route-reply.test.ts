import { describe, expect, it } from "bun:test";
import { createMemoryStore } from "@uwf/cas";
import type { Address, ThreadStartNode } from "@uwf/protocol";
import { compileWorkflow, parseWorkflowSource } from "@uwf/workflow";
import { ThreadHistory } from "../history/thread-history.ts";
import { routeReply } from "./route-reply.ts";

const compiled = compileWorkflow(
  parseWorkflowSource(
    `
name: review
roles:
  writer: { goal: Write., frontmatter: { type: object, properties: { summary: { type: string }, stuck: { type: boolean } } } }
  reviewer: { goal: Review., frontmatter: { type: object, properties: { comments: { type: string } } } }
conditions:
  stuck: { expression: "steps[-1].output.stuck = true" }
graph:
  $START: [ { role: writer, prompt: "Write." } ]
  writer:
    - { role: reviewer, status: ready, prompt: "Review: {{ summary }}" }
    - { role: $END, condition: stuck, prompt: "Stopped." }
  reviewer:
    approved: { role: $END, prompt: "Done." }
    rejected: { role: writer, prompt: "{{ comments }}" }
    parked: { role: writer, prompt: "{% if comments %}{{ comments }}{% endif %}" }
`,
    { file: "review.yaml" },
  ).workflow,
);

const start: ThreadStartNode = {
  type: "thread-start/1",
  workflow: "0000000000000" as Address,
  prompt: "Go.",
  cwd: "/",
};
const history = new ThreadHistory(createMemoryStore().objects, {
  startAddress: "0000000000001" as Address,
  start,
  steps: [],
  nodes: [],
  indexed: false,
});

function route(role: string, output: Record<string, unknown>) {
  const time = "2026-01-01T00:00:00.000Z";
  return routeReply({
    compiled,
    record: { id: "01J0000000000000000000THRD", workflow: "review" },
    start,
    history,
    step: { role, output, body: "", agent: "test", startedAt: time, completedAt: time },
  });
}

describe("routeReply", () => {
  it("returns the edge the reply takes and its rendered prompt", async () => {
    expect(await route("writer", { $status: "ready", summary: "Added a flag" })).toMatchObject({
      success: true,
      route: { role: "reviewer", prompt: "Review: Added a flag" },
    });
    expect(await route("reviewer", { $status: "approved" })).toMatchObject({ success: true, route: { role: "$END" } });
  });

  it("names the statuses that have edges when the reply's $status has none", async () => {
    expect(await route("reviewer", { $status: "maybe" })).toEqual({
      success: false,
      retry: true,
      problem: `$status "maybe" has no edge from role reviewer; the edges answer: approved, rejected, parked`,
    });
  });

  it("says which edges without a status were tried, and when the reply has no $status at all", async () => {
    expect(await route("writer", { summary: "x" })).toEqual({
      success: false,
      retry: true,
      problem:
        "the reply has no $status, and no edge without a status holds (condition stuck → $END); the edges answer: ready",
    });
  });

  it("names the field an edge prompt needed", async () => {
    const routed = await route("reviewer", { $status: "rejected" });
    expect(routed.success).toBe(false);
    if (routed.success) return;
    expect(routed.problem).toContain("the edge from role reviewer to writer");
    expect(routed.problem).toContain('needs the field "comments", which the reply does not set');
  });

  it("names only fields, not Liquid's closing tags, when a conditional prompt renders empty", async () => {
    const routed = await route("reviewer", { $status: "parked" });
    expect(routed.success).toBe(false);
    if (routed.success) return;
    expect(routed.problem).toContain(
      'rendered an empty prompt: it needs the field "comments", which the reply does not set',
    );
  });
});

describe("routeReply into a fan-out", () => {
  const fanOut = compileWorkflow(
    parseWorkflowSource(
      `
name: files
roles: { splitter: { goal: Split. }, fixer: { goal: Fix. }, reducer: { goal: Reduce. } }
graph:
  $START: [{ role: splitter, prompt: "Split." }]
  splitter:
    - { foreach: files, as: file, branch: { role: fixer, prompt: "Fix {{ file }}" }, join: { role: reducer, prompt: "Sum." } }
  reducer: [{ role: $END }]
`,
      { file: "files.yaml" },
    ).workflow,
  );
  const routeSplit = (output: Record<string, unknown>) => {
    const time = "2026-01-01T00:00:00.000Z";
    return routeReply({
      compiled: fanOut,
      record: { id: "01J0000000000000000000THRD", workflow: "files" },
      start,
      history,
      step: { role: "splitter", output, body: "", agent: "test", startedAt: time, completedAt: time },
    });
  };

  it("routes to the join with the planned branches", async () => {
    expect(await routeSplit({ files: ["a.ts", "b.ts"] })).toMatchObject({
      success: true,
      route: { role: "reducer", prompt: "", fanOut: { kind: "foreach", branches: [{ key: "0" }, { key: "1" }] } },
    });
  });

  it("sends a reply whose foreach gives no list back to its agent, naming the field", async () => {
    expect(await routeSplit({ files: "a.ts" })).toEqual({
      success: false,
      retry: true,
      problem:
        'routing the reply failed: the fan-out from splitter (edge 0) cannot plan its branches: foreach "files" must give a list, one item per branch, but gave a string ("a.ts")',
    });
  });
});
