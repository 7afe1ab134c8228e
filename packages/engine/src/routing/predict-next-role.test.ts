import { describe, expect, it } from "bun:test";
import { NodeNotFoundError } from "@uwf/cas";
import { compileWorkflow, type ModeratorHistory, type ModeratorStep, parseWorkflowSource } from "@uwf/workflow";
import { predictNextRole } from "./predict-next-role.ts";

const compiled = compileWorkflow(
  parseWorkflowSource(
    `
name: review
roles:
  writer: { goal: Write., frontmatter: { type: object, properties: { summary: { type: string } } } }
  reviewer: { goal: Review., frontmatter: { type: object, properties: { comments: { type: string } } } }
graph:
  $START: [ { role: writer, prompt: "Write." } ]
  writer: [ { role: reviewer, prompt: "{{ summary }}" } ]
  reviewer:
    approved: { role: $END, prompt: "Done." }
    rejected: { role: writer, prompt: "Fix it." }
`,
    { file: "review.yaml" },
  ).workflow,
);

function historyOf(steps: readonly ModeratorStep[]): ModeratorHistory {
  return { start: { prompt: "Go.", workflow: "review", cwd: "/" }, thread: { id: "T" }, steps };
}

function step(role: string, output: Record<string, unknown>): ModeratorStep {
  const at = "2025-01-01T00:00:00.000Z";
  return { role, output, body: "", agent: "scripted", startedAt: at, completedAt: at };
}

describe("predictNextRole", () => {
  it("names the role the moderator picks", async () => {
    expect(await predictNextRole(compiled, historyOf([]), "new")).toBe("writer");
    expect(await predictNextRole(compiled, historyOf([step("writer", { summary: "s" })]))).toBe("reviewer");
  });

  it("is null when the workflow cannot route from here, which the next step reports", async () => {
    // No edge answers this $status.
    expect(await predictNextRole(compiled, historyOf([step("reviewer", { $status: "nowhere" })]))).toBeNull();
    // The edge prompt renders empty without the field the reply lacks.
    expect(await predictNextRole(compiled, historyOf([step("writer", {})]))).toBeNull();
  });

  it("throws any other error instead of taking it for 'cannot tell'", async () => {
    const failure = new NodeNotFoundError("0000000000001");
    const history: ModeratorHistory = {
      ...historyOf([]),
      get steps(): readonly ModeratorStep[] {
        throw failure;
      },
    };
    await expect(predictNextRole(compiled, history)).rejects.toBe(failure);
    const bug = new TypeError("cannot read properties of undefined");
    const buggy: ModeratorHistory = {
      ...historyOf([]),
      get steps(): readonly ModeratorStep[] {
        throw bug;
      },
    };
    await expect(predictNextRole(compiled, buggy)).rejects.toBe(bug);
  });
});
