import { describe, expect, it } from "bun:test";
import { historyOf, workflowFromYaml } from "../../test/moderator-test-helpers.ts";
import { NoResumeEdgeError } from "../errors/no-resume-edge-error.ts";
import { NoTransitionError } from "../errors/no-transition-error.ts";
import { compileWorkflow } from "./compile-workflow.ts";
import type { ModeratorMode } from "./moderator-history.ts";
import { pickNextRole } from "./pick-next-role.ts";

const reviewLoop = compileWorkflow(
  workflowFromYaml(`
name: test
roles:
  writer:
    goal: Write.
    frontmatter: { type: object, properties: { summary: { type: string } } }
  reviewer:
    goal: Review.
    frontmatter: { type: object, properties: { approved: { type: boolean }, comments: { type: string } } }
  editor:
    goal: Edit.
conditions:
  rejected: { expression: "steps[-1].output.approved = false" }
  too-many-rounds: { expression: "$count('writer') >= 3" }
graph:
  $START:
    - { role: editor, status: resume, prompt: "Thread {{ thread.id }} was reopened." }
    - { role: writer, prompt: "Solve: {{ start.prompt }}" }
  writer:
    - { role: reviewer, prompt: "Review: {{ summary }}" }
  reviewer:
    - { role: $END, condition: too-many-rounds, prompt: "Out of rounds." }
    - { role: writer, condition: rejected, prompt: "Address: {{ comments }}" }
    - { role: $END, prompt: "" }
  editor:
    - { role: $END, prompt: "Edited." }
`),
);

const approved = { role: "reviewer", output: { approved: true, comments: "fine" } };
const rejected = { role: "reviewer", output: { approved: false, comments: "add a test" } };
const wrote = { role: "writer", output: { summary: "a fix" } };

describe("pickNextRole", () => {
  const cases: {
    name: string;
    steps: Parameters<typeof historyOf>[0];
    mode: ModeratorMode;
    role: string;
    prompt: string;
  }[] = [
    {
      name: "starts a new thread at the first $START edge that is not a resume edge",
      steps: [],
      mode: "new",
      role: "writer",
      prompt: "Solve: fix the bug",
    },
    {
      name: "treats continue with no steps as a new thread",
      steps: [],
      mode: "continue",
      role: "writer",
      prompt: "Solve: fix the bug",
    },
    {
      name: "follows the only edge of a role and renders its prompt from the output",
      steps: [wrote],
      mode: "continue",
      role: "reviewer",
      prompt: "Review: a fix",
    },
    {
      name: "takes the first edge whose condition holds",
      steps: [wrote, rejected],
      mode: "continue",
      role: "writer",
      prompt: "Address: add a test",
    },
    {
      name: "falls through failing conditions to the unconditional edge",
      steps: [wrote, approved],
      mode: "continue",
      role: "$END",
      prompt: "",
    },
    {
      name: "tries edges in order, so an earlier condition wins over a later one",
      steps: [wrote, rejected, wrote, rejected, wrote, rejected],
      mode: "continue",
      role: "$END",
      prompt: "Out of rounds.",
    },
    {
      name: "on resume takes only the $START resume edges",
      steps: [wrote, approved],
      mode: "resume",
      role: "editor",
      prompt: "Thread 01J0000000000000000000THRD was reopened.",
    },
  ];
  for (const testCase of cases) {
    it(testCase.name, async () => {
      const decision = await pickNextRole(reviewLoop, historyOf(testCase.steps), { mode: testCase.mode });
      expect({ role: decision.role, prompt: decision.prompt }).toEqual({
        role: testCase.role,
        prompt: testCase.prompt,
      });
    });
  }

  it("reports the edge it took and the node it left", async () => {
    const decision = await pickNextRole(reviewLoop, historyOf([wrote, rejected]), { mode: "continue" });
    expect(decision.from).toBe("reviewer");
    expect(decision.transition).toEqual({
      role: "writer",
      condition: "rejected",
      status: null,
      prompt: "Address: {{ comments }}",
    });
  });

  it("refuses to resume a workflow without a $START resume edge, naming the workflow", async () => {
    const workflow = compileWorkflow(
      workflowFromYaml(`
name: no-resume
roles: { writer: { goal: Write. } }
graph:
  $START: [{ role: writer, prompt: "Go." }]
  writer: [{ role: $END }]
`),
    );
    const attempt = pickNextRole(workflow, historyOf([{ role: "writer" }]), { mode: "resume" });
    await expect(attempt).rejects.toBeInstanceOf(NoResumeEdgeError);
    await expect(attempt).rejects.toThrow("workflow no-resume has no $START resume edge");
  });

  it("fails with the role and every condition tried when no edge holds", async () => {
    const workflow = compileWorkflow(
      workflowFromYaml(`
name: stuck
roles:
  reviewer: { goal: Review., frontmatter: { type: object, properties: { approved: { type: boolean } } } }
conditions:
  approved: { expression: "steps[-1].output.approved" }
  rejected: { expression: "steps[-1].output.approved = false" }
graph:
  $START: [{ role: reviewer, prompt: "Review." }]
  reviewer:
    - { role: $END, condition: approved }
    - { role: reviewer, condition: rejected, prompt: "Again." }
`),
    );
    const error = await pickNextRole(workflow, historyOf([{ role: "reviewer", output: {} }]), {
      mode: "continue",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NoTransitionError);
    expect((error as NoTransitionError).code).toBe("no-transition");
    expect((error as NoTransitionError).message).toBe(
      "no transition from reviewer holds (tried condition approved → $END, condition rejected → reviewer)",
    );
    expect((error as NoTransitionError).data).toEqual({
      role: "reviewer",
      tried: [
        { role: "$END", condition: "approved", status: null },
        { role: "reviewer", condition: "rejected", status: null },
      ],
      status: null,
    });
  });
});

describe("pickNextRole with $status edges", () => {
  const statusLoop = compileWorkflow(
    workflowFromYaml(`
name: status-loop
roles:
  writer: { goal: Write. }
  reviewer:
    goal: Review.
    frontmatter: { type: object, properties: { $status: { enum: [approved, rejected, escalate] }, comments: { type: string } } }
conditions:
  second-round: { expression: "$count('reviewer') >= 2" }
graph:
  $START:
    new: { role: writer, prompt: "Write." }
    resume: { role: reviewer, prompt: "Look again." }
  writer: [{ role: reviewer, prompt: "Review it." }]
  reviewer:
    - { role: $END, status: approved, prompt: "Approved: {{ comments }}" }
    - { role: $END, status: rejected, condition: second-round, prompt: "Gave up." }
    - { role: writer, status: rejected, prompt: "Revise: {{ comments }} ({{ ['$status'] }})" }
`),
  );
  const review = (status: string) => ({ role: "reviewer", output: { $status: status, comments: "c" } });
  const cases = [
    {
      name: "routes on the previous step's $status",
      steps: [{ role: "writer" }, review("approved")],
      role: "$END",
      prompt: "Approved: c",
    },
    {
      name: "needs both the status and the condition of an edge to hold",
      steps: [{ role: "writer" }, review("rejected")],
      role: "writer",
      prompt: "Revise: c (rejected)",
    },
    {
      name: "takes an edge with status and condition when both hold",
      steps: [{ role: "writer" }, review("rejected"), { role: "writer" }, review("rejected")],
      role: "$END",
      prompt: "Gave up.",
    },
  ];
  for (const testCase of cases) {
    it(testCase.name, async () => {
      const decision = await pickNextRole(statusLoop, historyOf(testCase.steps), { mode: "continue" });
      expect({ role: decision.role, prompt: decision.prompt }).toEqual({
        role: testCase.role,
        prompt: testCase.prompt,
      });
    });
  }

  it("starts a new thread on the $START new key and a resumed one on the resume key", async () => {
    expect((await pickNextRole(statusLoop, historyOf([]), { mode: "new" })).role).toBe("writer");
    const resumed = await pickNextRole(statusLoop, historyOf([{ role: "writer" }, review("approved")]), {
      mode: "resume",
    });
    expect(resumed).toMatchObject({ role: "reviewer", prompt: "Look again.", from: "$START" });
  });

  it("fails naming the $status when no status edge matches it", async () => {
    const attempt = pickNextRole(statusLoop, historyOf([{ role: "writer" }, review("escalate")]), { mode: "continue" });
    await expect(attempt).rejects.toThrow(
      'no transition from reviewer holds (tried status approved → $END, condition second-round and status rejected → $END, status rejected → writer; $status was "escalate")',
    );
  });
});
