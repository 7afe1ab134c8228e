import { describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  errorResultSchema,
  forkResultSchema,
  logResultSchema,
  type ReplayResult,
  replayResultSchema,
} from "@uwf/protocol";
import { editedWorkflowCopy } from "../../../../../test/kit/workflow/edited-workflow-copy.ts";
import { FIXTURES, useTempHome } from "../../helpers/temp-home.ts";

const REVIEW_LIST = join(FIXTURES, "replay/review-list.yaml");
const TRIAGE_MAP = join(FIXTURES, "replay/triage-map.yaml");
const scripted = (workflow: string) => `scripted:${workflow.replace(/\.yaml$/, ".scenario.yaml")}`;

const temp = useTempHome();

/** A thread of `workflow` run to its end by its scenario. */
async function ranThread(workflow: string): Promise<string> {
  const run = await temp.uwf([
    "run",
    workflow,
    "-p",
    "The app crashes on start",
    "--agent",
    scripted(workflow),
    "--json",
  ]);
  expect(run.exitCode).toBe(0);
  return (run.json() as { thread: string }).thread;
}

/** A copy of `workflow` with each `[from, to]` replaced, in a folder of its own (so it keeps its name). */
function editedCopy(workflow: string, ...edits: Array<[string, string]>): string {
  return editedWorkflowCopy(workflow, temp.work, edits);
}

async function replayJson(args: string[]): Promise<{ exitCode: number; result: ReplayResult }> {
  const run = await temp.uwf(["replay", ...args, "--json"]);
  return { exitCode: run.exitCode, result: replayResultSchema.parse(run.json()) };
}

describe("uwf replay, ordered transitions with JSONata conditions", () => {
  it("replays a thread through the same workflow identically (exit 0), writing nothing to the store", async () => {
    const thread = await ranThread(REVIEW_LIST);
    const before = temp.objectCount();
    const text = await temp.uwf(["replay", thread, "--workflow", REVIEW_LIST]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout.trim().split("\n")).toEqual([
      `${thread} identical 4 steps`,
      expect.stringMatching(/^1 thread replayed through review-list \([0-9A-Z]{13}\): 1 identical, 0 diverged$/),
    ]);
    const { exitCode, result } = await replayJson([thread.slice(0, 10), "--workflow", "review-list"]);
    expect(exitCode).toBe(0);
    expect(result).toMatchObject({ identical: 1, diverged: 0, workflow: { name: "review-list", file: null } });
    expect(temp.objectCount()).toBe(before);
  });

  it("reports a required field added to a role as reply-refused, naming the field (exit 1)", async () => {
    const thread = await ranThread(REVIEW_LIST);
    const edited = editedCopy(
      REVIEW_LIST,
      ["summary: { type: string }", "summary: { type: string }\n        files: { type: array }"],
      ["required: [summary]", "required: [summary, files]"],
    );
    const before = temp.objectCount();
    const text = await temp.uwf(["replay", thread, "--workflow", edited]);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toContain(`${thread} diverged  step 1 writer`);
    expect(text.stdout).toContain("reply-refused field files");
    const { result } = await replayJson([thread, "--workflow", edited]);
    expect(result.threads[0]?.divergence).toMatchObject({ kind: "reply-refused", step: 1, field: "files" });
    expect(result.workflow.file).toBe(edited);
    // The edited file is read, not registered: nothing is written.
    expect(temp.objectCount()).toBe(before);
  });

  it("reports a changed condition as route-changed with the old and the new role", async () => {
    const thread = await ranThread(REVIEW_LIST);
    const edited = editedCopy(REVIEW_LIST, ["approved = false", "approved = true"]);
    const { exitCode, result } = await replayJson([thread, "--workflow", edited]);
    expect(exitCode).toBe(1);
    expect(result.threads[0]?.divergence).toMatchObject({
      kind: "route-changed",
      step: 2,
      role: "reviewer",
      expected: "writer",
      actual: "$END",
    });
    const log = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json());
    expect(result.threads[0]?.divergence?.address).toBe(log.steps[1]?.address as string);
  });

  it("reports a role the workflow no longer has as role-missing", async () => {
    const thread = await ranThread(REVIEW_LIST);
    const edited = editedCopy(
      REVIEW_LIST,
      ["  reviewer:\n    goal: Review the change.", "  critic:\n    goal: Review the change."],
      ["{ role: reviewer,", "{ role: critic,"],
      ["  reviewer:\n    - { role: writer", "  critic:\n    - { role: writer"],
    );
    const text = await temp.uwf(["replay", thread, "--workflow", edited]);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toContain("step 2 reviewer");
    expect(text.stdout).toContain("role-missing: role reviewer is not in workflow review-list");
  });

  it("refuses a bad workflow file with exit 2, naming the file and line, and an unknown thread with exit 2", async () => {
    const thread = await ranThread(REVIEW_LIST);
    const broken = editedCopy(REVIEW_LIST, [
      "{ role: writer, condition: rejected,",
      "{ role: writer, condition: nosuch,",
    ]);
    const bad = await temp.uwf(["replay", thread, "--workflow", broken]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(new RegExp(`${broken.replaceAll(".", "\\.")}:\\d+`));
    expect(bad.stderr).toContain("nosuch");
    expect(bad.stdout).toBe("");

    const unknown = await temp.uwf(["replay", "01JD0000000000000000000009", "--workflow", REVIEW_LIST, "--json"]);
    expect(unknown.exitCode).toBe(2);
    expect(errorResultSchema.parse(JSON.parse(unknown.stderr)).error.code).toBe("usage");
    expect((await temp.uwf(["replay", "--workflow", REVIEW_LIST])).exitCode).toBe(2);
  });
});

describe("uwf replay, $status-keyed maps with per-status oneOf outputs and Liquid prompts", () => {
  it("replays identically, and reports a oneOf branch's new required field, a moved status edge and an empty Liquid prompt", async () => {
    const thread = await ranThread(TRIAGE_MAP);
    expect((await temp.uwf(["replay", thread, "--workflow", TRIAGE_MAP])).exitCode).toBe(0);

    const required = editedCopy(
      TRIAGE_MAP,
      [
        "severity: { type: string, enum: [low, high] }",
        "severity: { type: string, enum: [low, high] }\n            component: { type: string }",
      ],
      ["required: [$status, severity]", "required: [$status, severity, component]"],
    );
    const moved = editedCopy(TRIAGE_MAP, ["wontfix: { role: triager,", "wontfix: { role: answerer,"]);
    const empty = editedCopy(
      TRIAGE_MAP,
      ["topic: { type: string }", "topic: { type: string }\n            area: { type: string }"],
      [
        '"Answer the question about {{ topic | upcase }}."',
        '"{% if area %}Answer about {{ topic }} in {{ area }}.{% endif %}"',
      ],
    );
    const divergence = async (workflow: string) => {
      const { exitCode, result } = await replayJson([thread, "--workflow", workflow]);
      expect(exitCode).toBe(1);
      return result.threads[0]?.divergence;
    };
    expect(await divergence(required)).toMatchObject({ kind: "reply-refused", step: 1, field: "component" });
    expect(await divergence(moved)).toMatchObject({
      kind: "route-changed",
      step: 2,
      role: "fixer",
      expected: "triager",
      actual: "answerer",
    });
    expect(await divergence(empty)).toMatchObject({
      kind: "prompt-failed",
      step: 3,
      role: "triager",
      actual: "answerer",
      field: "area",
    });
  });
});

describe("uwf replay --forks-of", () => {
  it("replays a whole family, one line per thread and a summary, exit 1 when one diverged", async () => {
    const original = await ranThread(REVIEW_LIST);
    const log = logResultSchema.parse((await temp.uwf(["log", original, "--json"])).json());
    const [writerStep, reviewerStep] = log.steps.map((step) => step.address);
    // A fork that the reviewer approved at once, and one stopped after the first draft.
    const reply = join(temp.work, "approve.md");
    writeFileSync(reply, "---\napproved: true\n---\n\nApproved at once.\n");
    const approved = await temp.uwf(["fork", reviewerStep as string, "--output", reply, "--json"]);
    expect(approved.exitCode).toBe(0);
    const plain = await temp.uwf(["fork", writerStep as string, "--json"]);
    expect(plain.exitCode).toBe(0);
    const forks = [approved, plain].map((fork) => forkResultSchema.parse(fork.json()).thread);

    // Only the original asked for changes: its "Address the review" prompt now renders empty.
    const edited = editedCopy(REVIEW_LIST, [
      '"Address the review: {{ comments }}"',
      "\"{% if comments == 'never' %}Address the review: {{ comments }}{% endif %}\"",
    ]);
    const before = temp.objectCount();
    const text = await temp.uwf(["replay", "--forks-of", original, "--workflow", edited]);
    expect(text.exitCode).toBe(1);
    const lines = text.stdout.trim().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines.find((line) => line.startsWith(original))).toContain("prompt-failed writer → writer");
    for (const fork of forks) expect(lines.find((line) => line.startsWith(fork))).toContain("identical");
    expect(lines.at(-1)).toMatch(/^3 threads replayed through review-list \([0-9A-Z]{13}\): 2 identical, 1 diverged$/);

    const { result } = await replayJson(["--forks-of", original, "--workflow", REVIEW_LIST]);
    expect(result).toMatchObject({ identical: 3, diverged: 0 });
    expect(temp.objectCount()).toBe(before);
  });

  it("reads thread ids from stdin with -", async () => {
    const first = await ranThread(REVIEW_LIST);
    const second = await ranThread(TRIAGE_MAP);
    const run = await temp.uwf(["replay", "-", "--workflow", REVIEW_LIST, "--json"], {
      stdin: `${first}\n${second}\n`,
    });
    expect(run.exitCode).toBe(1);
    const result = replayResultSchema.parse(run.json());
    expect(result.threads.map((thread) => [thread.thread, thread.result])).toEqual([
      [first, "identical"],
      [second, "diverged"],
    ]);
    expect(result.threads[1]?.divergence).toMatchObject({ kind: "role-missing", step: 1, role: "triager" });
  });
});

describe("the CI job of docs/replay.md", () => {
  // The job's own words: the last month's threads of a workflow, by `list --json` and jq, replayed from stdin.
  it.skipIf(Bun.which("jq") === null)(
    "replays the last month's threads of a workflow through the edited file",
    async () => {
      const threads = [await ranThread(REVIEW_LIST), await ranThread(REVIEW_LIST)];
      const edited = editedCopy(REVIEW_LIST, ["approved = false", "approved = true"]);
      const job = await temp.shell(`set -eu
since=$(date -u -d '30 days ago' +%Y-%m-%dT%H:%M:%SZ)
$UWF list --workflow review-list --limit 0 --json \\
  | jq -r --arg since "$since" '.threads[] | select(.createdAt >= $since) | .id' > threads.txt
$UWF replay - --workflow ${edited} < threads.txt`);
      expect(job.exitCode).toBe(1);
      const lines = job.stdout.trim().split("\n");
      for (const thread of threads) expect(lines.find((line) => line.startsWith(thread))).toContain("route-changed");
      expect(lines.at(-1)).toContain("2 threads replayed through review-list");
      expect((await temp.shell(`$UWF replay - --workflow ${REVIEW_LIST} < threads.txt`)).exitCode).toBe(0);
    },
  );
});

describe("uwf replay's help", () => {
  it("shows its flags and examples, and the exit-codes topic says what exit 1 means for it", async () => {
    const help = await temp.uwf(["replay", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("--workflow <file-or-name>");
    expect(help.stdout).toContain("--forks-of <thread>");
    expect((await temp.uwf(["help", "exit-codes"])).stdout).toContain("`replay`: a thread diverged");
  });
});
