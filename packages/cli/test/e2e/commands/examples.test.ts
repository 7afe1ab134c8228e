import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { listResultSchema, logResultSchema, readResultSchema, stepResultSchema } from "@uwf/protocol";
import { EXAMPLES, runExampleArgs, useTempHome } from "../../helpers/temp-home.ts";

const REPOSITORY = join(EXAMPLES, "..");

const temp = useTempHome();

describe("the examples", () => {
  it("run the review loop round twice to its end", async () => {
    const result = await temp.uwf(runExampleArgs("review-loop", "Fix the login redirect bug"));
    expect(result.exitCode).toBe(0);
    const run = stepResultSchema.parse(result.json());
    expect(run.status).toBe("ended");
    expect(run.steps.map((step) => step.role)).toEqual(["writer", "reviewer", "writer", "reviewer"]);
    expect(run.steps.map((step) => step.status)).toEqual([null, "rejected", null, "approved"]);
  });

  it("run the README demo: scripted model roles around real shell checks", async () => {
    const result = await temp.uwf(
      [
        "run",
        "examples/ship-change.yaml",
        "-p",
        "Add a --dry-run flag",
        "--agent",
        "scripted:examples/ship-change.scenario.yaml",
        "--json",
      ],
      { cwd: REPOSITORY },
    );
    expect(result.exitCode).toBe(0);
    const run = stepResultSchema.parse(result.json());
    expect(run.status).toBe("ended");
    const checks = run.steps.filter((step) => step.role === "checks");
    expect(checks.map((step) => [step.agent, step.status])).toEqual([
      ["shell", "pass"],
      ["shell", "pass"],
    ]);
    const read = await temp.uwf(["read", run.thread]);
    expect(read.stdout).toContain("checks: all passed");
  });

  it("run the change review: three reviewers at once in branch threads, then the synthesizer's join", async () => {
    const result = await temp.uwf(runExampleArgs("review-change", "Add rate limiting to the login endpoint"));
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const run = stepResultSchema.parse(result.json());
    expect(run.status).toBe("ended");
    expect(run.steps.map((step) => [step.role, step.status])).toEqual([
      ["summarizer", "summarized"],
      ["synthesizer", "changes-requested"],
    ]);
    const listed = listResultSchema.parse((await temp.uwf(["list", "--json"])).json());
    const branches = listed.threads.filter((thread) => thread.branchOf?.thread === run.thread);
    expect(branches.map((branch) => [branch.branchOf?.branch, branch.status, branch.outcome?.status]).sort()).toEqual([
      ["readability", "ended", "approve"],
      ["security", "ended", "approve"],
      ["tests", "ended", "concerns"],
    ]);
    // The synthesizer was asked with every review, in the order the workflow names them.
    const read = await temp.uwf(["read", run.thread]);
    expect(read.stdout).toContain(
      "- security: approve\n> - tests: concerns (src/auth/rate-limit.ts: nothing tests that the bucket refills after a minute)\n> - readability: approve",
    );
  });

  it("run the release gate: it waits for the release manager's approval, then publishes", async () => {
    const scenario = join(EXAMPLES, "release-gate.scenario.yaml");
    // `step` stops where the approver asks; `run` (below) answers with the answer the scenario records.
    const started = await temp.startThread(join(EXAMPLES, "release-gate.yaml"), "Release the export command");
    const first = await temp.uwf(["step", started, "--all", "--agent", `scripted:${scenario}`, "--json"]);
    expect(first.exitCode).toBe(20);
    const asked = stepResultSchema.parse(first.json());
    expect(asked.suspension?.ask).toEqual({
      question: "Release 2.4.0 (risk medium) today?",
      version: "2.4.0",
      risk: "medium",
    });
    const answer = '{"approved": true, "comment": "Ship it after the 10:00 stand-up."}';
    const resumed = await temp.uwf([
      "resume",
      asked.thread,
      "--answer",
      answer,
      "--all",
      "--agent",
      `scripted:${scenario}`,
      "--json",
    ]);
    expect(resumed.exitCode).toBe(0);
    const run = stepResultSchema.parse(resumed.json());
    expect(run.status).toBe("ended");
    expect(run.steps.map((step) => step.role)).toEqual(["approver", "publisher"]);
    const read = await temp.uwf(["read", run.thread]);
    expect(read.stdout).toContain("Publish it. The release manager said: Ship it after the 10:00 stand-up.");

    const played = await temp.uwf(runExampleArgs("release-gate", "Release the export command"));
    expect(played.exitCode).toBe(0);
    expect(stepResultSchema.parse(played.json()).steps.map((step) => step.role)).toEqual([
      "preparer",
      "reviewer",
      "approver",
      "approver",
      "publisher",
    ]);
  }, 60_000);

  it("keep the newest steps within the read quota and say how to see the rest", async () => {
    const run = stepResultSchema.parse((await temp.uwf(runExampleArgs("review-loop", "Fix it"))).json());
    const full = readResultSchema.parse((await temp.uwf(["read", run.thread, "--json"])).json());
    expect(full.shownSteps).toBe(4);
    const small = readResultSchema.parse((await temp.uwf(["read", run.thread, "--quota", "500", "--json"])).json());
    expect(small.totalSteps).toBe(4);
    expect(small.shownSteps).toBeGreaterThan(0);
    expect(small.shownSteps).toBeLessThan(4);
    const firstShown = 4 - small.shownSteps + 1;
    expect(small.markdown).toContain(`## Step ${firstShown} ·`);
    expect(small.markdown).not.toContain(`## Step ${firstShown - 1} ·`);
    expect(small.markdown).toContain(`Steps 1–${firstShown - 1} are not shown`);
    const log = logResultSchema.parse((await temp.uwf(["log", run.thread, "--json"])).json());
    expect(log.steps).toHaveLength(4);
  });
});
