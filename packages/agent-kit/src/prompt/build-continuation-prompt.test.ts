import { describe, expect, it } from "bun:test";
import { sampleWorkflow } from "@uwf/cas/test";
import type { WorkflowNode } from "@uwf/protocol";
import { type BuildContinuationPromptOptions, buildContinuationPrompt } from "./build-continuation-prompt.ts";
import { firstShownStep } from "./first-shown-step.ts";
import type { HistoryEntry } from "./history-entry.ts";

const sample = sampleWorkflow();
const sampleWriter = sample.roles.writer;
if (sampleWriter === undefined) throw new Error("the sample workflow has no writer");
/** The sample review loop, its writer described in full: the role section shows every field. */
const workflow: WorkflowNode = {
  ...sample,
  roles: {
    ...sample.roles,
    writer: {
      ...sampleWriter,
      description: "Drafts the change",
      procedure: "Read the task, make the change, run the tests.",
      output: "Summarise what you changed.",
    },
  },
};

/** The prompt for `options` in that workflow, for the task "T" unless they name another. */
function promptFor(options: Omit<BuildContinuationPromptOptions, "workflow" | "task"> & { task?: string }): string {
  return buildContinuationPrompt({ workflow, task: "T", ...options });
}

function step(number: number, role: string, output: Record<string, unknown>, body: string): HistoryEntry {
  const second = String(number).padStart(2, "0");
  return {
    number,
    role,
    agent: "scripted",
    output,
    body,
    edgePrompt: `prompt of step ${number}`,
    startedAt: `2025-01-01T00:00:${second}.000Z`,
    completedAt: `2025-01-01T00:01:${second}.000Z`,
  };
}

const history: HistoryEntry[] = [
  step(1, "writer", { summary: "first draft" }, "BODY-1 the first draft"),
  step(2, "reviewer", { approved: false, comments: "too long" }, "BODY-2 review"),
  step(3, "writer", { summary: "second draft" }, "BODY-3 the second draft"),
];

describe("buildContinuationPrompt", () => {
  it("orders the sections: output format, role, task, history, edge prompt", () => {
    const prompt = promptFor({
      roleName: "writer",
      task: "Fix the bug.",
      history: [],
      edgePrompt: "Solve the task.",
    });
    const positions = ["# Output format", "# Your role: writer", "# Task", "# History", "# Your next step"].map(
      (heading) => prompt.indexOf(`${heading}\n`),
    );
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((left, right) => left - right)).toEqual(positions);
    expect(prompt).toEndWith("# Your next step\n\nThis is step 1 of the thread.\n\nSolve the task.\n");
  });

  it("describes the role: goal, capabilities, procedure and output", () => {
    const prompt = promptFor({
      roleName: "writer",
      task: "Fix the bug.",
      history: [],
      edgePrompt: "Go.",
    });
    expect(prompt).toContain(
      [
        "# Your role: writer",
        "",
        'You play the role "writer" in a thread of the workflow "review-loop" (Write, review, revise).',
        "",
        "Drafts the change",
        "",
        "## Goal",
        "",
        "You write the smallest change that solves the task.",
        "",
        "## Capabilities",
        "",
        "- file-edit",
        "- shell",
        "",
        "## Procedure",
        "",
        "Read the task, make the change, run the tests.",
        "",
        "## Output",
        "",
        "Summarise what you changed.",
        "",
        "# Task",
        "",
        "Fix the bug.",
      ].join("\n"),
    );
    expect(prompt).toContain("Nothing has happened yet: yours is the first step.");
  });

  it("shows every step on a role's first visit, with real step numbers, outputs and bodies", () => {
    const prompt = promptFor({
      roleName: "reviewer",
      history: history.slice(0, 1),
      edgePrompt: "Review.",
    });
    expect(prompt).toContain("1 step so far, oldest first.");
    expect(prompt).toContain(
      [
        "## Step 1: writer",
        "",
        "Agent `scripted`, started 2025-01-01T00:00:01.000Z, completed 2025-01-01T00:01:01.000Z.",
        "",
        "It was asked:",
        "",
        "> prompt of step 1",
        "",
        "Output:",
        "",
        "```yaml",
        "summary: first draft",
        "```",
        "",
        "Body:",
        "",
        "```markdown",
        "BODY-1 the first draft",
        "```",
      ].join("\n"),
    );
    expect(prompt).toContain("This is step 2 of the thread.");
  });

  it("keeps the newest bodies within the quota and says which were left out", () => {
    const options = {
      roleName: "reviewer",
      history: [
        step(1, "writer", { summary: "a" }, "x".repeat(100)),
        step(2, "writer", { summary: "b" }, "y".repeat(30)),
      ],
      edgePrompt: "Review.",
    };
    const prompt = promptFor({ ...options, bodyQuota: 50 });
    expect(prompt).toContain("y".repeat(30));
    expect(prompt).toContain(`Body (the first 20 of 100 characters):\n\n\`\`\`markdown\n${"x".repeat(20)}\n…\n\`\`\``);
    const tiny = promptFor({ ...options, bodyQuota: 30 });
    expect(tiny).toContain("Body: left out (100 characters) to keep the history short.");
    expect(tiny).toContain("summary: a");
  });

  it("on a later visit of an agent that keeps no conversation shows the whole thread", () => {
    const prompt = promptFor({
      roleName: "reviewer",
      history,
      edgePrompt: "Review again.",
    });
    expect(prompt).toContain("3 steps so far, oldest first. You acted at step 2. Bodies are shown newest first");
    expect(prompt).toContain("## Step 1: writer\n");
    expect(prompt).toContain("BODY-1");
    expect(prompt).toContain("It was asked:\n\n> prompt of step 1");
    expect(prompt).toContain("## Step 2: reviewer (you)");
    expect(prompt).not.toContain("Earlier steps are left out");
  });

  it("on a later visit of an agent continuing its conversation shows only what happened since, not what it has", () => {
    const prompt = promptFor({
      roleName: "reviewer",
      history,
      edgePrompt: "Review again.",
      continuesConversation: true,
    });
    expect(prompt).toContain(
      "You acted last at step 2. This conversation holds the thread up to there, so those steps are left out here (1 writer, 2 reviewer). Below is the 1 step since, oldest first.",
    );
    expect(prompt).not.toContain("## Step 2");
    expect(prompt).not.toContain("BODY-2");
    expect(prompt).toContain("## Step 3: writer");
    expect(prompt).not.toContain("## Step 1");
    expect(prompt).not.toContain("BODY-1");
    expect(prompt).toContain("BODY-3");
    expect(prompt).toContain("This is step 4 of the thread.");
    // Everything before the task is the same at every visit of the role: providers can cache it.
    const first = promptFor({
      roleName: "reviewer",
      history: [],
      edgePrompt: "Go.",
      continuesConversation: true,
    });
    expect(prompt.slice(0, prompt.indexOf("# Task"))).toBe(first.slice(0, first.indexOf("# Task")));
  });

  it("needs only the number and role of the steps before the role's last visit", () => {
    const named = history.map((entry, index) =>
      index < firstShownStep(history, "reviewer") ? { number: entry.number, role: entry.role } : entry,
    );
    expect(named[0]).toEqual({ number: 1, role: "writer" });
    const options = { roleName: "reviewer", edgePrompt: "Review again.", continuesConversation: true };
    expect(promptFor({ ...options, history: named })).toBe(promptFor({ ...options, history }));
  });

  it("refuses a named step that it shows in full", () => {
    const named = history.map(({ number, role }) => ({ number, role }));
    expect(() => promptFor({ roleName: "reviewer", history: named, edgePrompt: "x" })).toThrow(
      "the prompt shows step 1 in full, but only its role was given",
    );
  });

  it("says so when nothing happened since the role last acted", () => {
    const prompt = promptFor({
      roleName: "writer",
      history,
      edgePrompt: "Answer: yes.",
      continuesConversation: true,
    });
    expect(prompt).toContain(
      "You acted last at step 3. This conversation holds the thread up to there, so those steps are left out here (1 writer, 2 reviewer, 3 writer). Nothing has happened since.",
    );
  });

  it("fences bodies so their own code blocks stay inside", () => {
    const prompt = promptFor({
      roleName: "reviewer",
      history: [step(1, "writer", { summary: "s" }, "```ts\ncode()\n```")],
      edgePrompt: "Review.",
    });
    expect(prompt).toContain("````markdown\n```ts\ncode()\n```\n````");
  });

  it("is deterministic", () => {
    const options = { workflow, roleName: "reviewer", task: "T", history, edgePrompt: "Review." };
    expect(buildContinuationPrompt(options)).toBe(buildContinuationPrompt(structuredClone(options)));
  });

  it("rejects a role the workflow does not have", () => {
    expect(() => promptFor({ roleName: "ghost", history, edgePrompt: "x" })).toThrow(
      'workflow review-loop has no role "ghost"',
    );
  });
});
