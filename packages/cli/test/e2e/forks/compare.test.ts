import { describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type CompareResult,
  compareResultSchema,
  errorResultSchema,
  forksResultSchema,
  logResultSchema,
  stepResultSchema,
} from "@uwf/protocol";
import { VERDICT_WORKFLOW } from "../../../../../test/kit/workflow/verdict-workflow.ts";
import { useTempHome } from "../../helpers/temp-home.ts";

/**
 * The verdict workflow (a writer and a reviewer whose `$status` ends the thread or sends the draft back).
 * The agent answers each role, the reviewer with $VERDICT, and reports $COST dollars and 100 + 20 tokens
 * a run in its usage file.
 */
const AGENT = [
  "#!/bin/sh",
  "cat >/dev/null",
  `printf '{"input_tokens": 100, "output_tokens": 20, "cost_usd": %s}' "$COST" > "$UWF_USAGE_FILE"`,
  'case "$UWF_ROLE" in',
  "  writer) printf -- '---\\ndraft: draft %s\\n---\\nA draft.\\n' \"$UWF_STEP\" ;;",
  "  *) printf -- '---\\n$status: %s\\n---\\nReviewed.\\n' \"$VERDICT\" ;;",
  "esac",
  "",
].join("\n");

const temp = useTempHome({
  setUp: (home) => {
    writeFileSync(join(home.work, "verdict.yaml"), VERDICT_WORKFLOW);
    writeFileSync(join(home.work, "agent.sh"), AGENT);
    home.writeConfig(`defaultAgent: cli\nagents:\n  cli: { command: sh, args: ["${join(home.work, "agent.sh")}"] }\n`);
  },
});

async function ok(args: string[], env: Record<string, string> = {}) {
  const run = await temp.uwf(args, { env });
  if (run.exitCode !== 0) throw new Error(`uwf ${args.join(" ")} exited ${run.exitCode}: ${run.stderr}`);
  return run;
}

/** Steps the thread to its end with the reviewer saying `verdict`, each run costing `cost` dollars. */
async function stepAll(thread: string, verdict: string, cost: number) {
  return stepResultSchema.parse(
    (await ok(["step", thread, "--all", "--json"], { VERDICT: verdict, COST: String(cost) })).json(),
  );
}

async function compare(...args: string[]): Promise<CompareResult> {
  const run = await ok(["compare", ...args, "--json"]);
  expect(run.stderr).toBe("");
  return compareResultSchema.parse(run.json());
}

/**
 * The original T (writer, reviewer approved; $0.01 a run); two forks at its writer step, F1 rejected
 * ($0.05) and F2 left unstepped; two counterfactuals of its review from a folder of replies, C1 rejected
 * outright and C2 sent back and then approved ($0.03 a run); and G, a fork of C2's own writer step,
 * rejected ($0.04).
 */
async function experiment() {
  const ran = stepResultSchema.parse(
    (await ok(["run", "verdict.yaml", "-p", "Write it", "--json"], { VERDICT: "approved", COST: "0.01" })).json(),
  );
  const t = ran.thread;
  const [writer1, review1] = ran.steps.map((step) => step.address) as [string, string];
  const [f1, f2] = forksResultSchema
    .parse((await ok(["fork", writer1, "--count", "2", "--json"])).json())
    .forks.map((fork) => fork.thread) as [string, string];
  await stepAll(f1, "rejected", 0.05);
  const replies = join(temp.work, "replies");
  mkdirSync(replies);
  writeFileSync(join(replies, "1-reject.md"), "---\n$status: rejected\n---\nNo.\n");
  writeFileSync(join(replies, "2-changes.md"), "---\n$status: changes\n---\nShorter, please.\n");
  const [c1, c2] = forksResultSchema
    .parse((await ok(["fork", review1, "--output", replies, "--json"])).json())
    .forks.map((fork) => fork.thread) as [string, string];
  await stepAll(c2, "approved", 0.03);
  const c2Steps = logResultSchema.parse((await ok(["log", c2, "--json"])).json()).steps;
  const forkG = await ok(["fork", c2Steps[2]?.address ?? "", "--json"]);
  const g = (forkG.json() as { thread: string }).thread;
  await stepAll(g, "rejected", 0.04);
  return { t, f1, f2, c1, c2, g, writer1, review1, c2Steps };
}

describe("uwf compare", () => {
  it("prints one row per member of a thread's fork family: outcome, own steps, cost, time and where it parts", async () => {
    const x = await experiment();
    const result = await compare(x.t);
    expect(result).toMatchObject({ reference: x.t, workflow: "verdict", original: x.t, at: null, sort: null });
    expect(result.rows.map((row) => row.thread)).toEqual([x.t, x.f1, x.f2, x.c1, x.c2, x.g]);
    const row = (thread: string) => result.rows.find((candidate) => candidate.thread === thread);
    const tokens = (runs: number) => ({ inputTokens: 100 * runs, outputTokens: 20 * runs });

    expect(row(x.t)).toMatchObject({
      status: "ended",
      outcome: { role: "reviewer", status: "approved" },
      depth: 0,
      stepCount: 2,
      ownSteps: 2,
      usage: { ...tokens(2), costUsd: 0.02 },
      tokens: 240,
      parts: null,
    });
    expect(row(x.t)?.durationMs).toBeGreaterThanOrEqual(0);
    expect(row(x.f1)).toMatchObject({
      status: "ended",
      outcome: { role: "reviewer", status: "rejected" },
      forkedAt: { step: 1, address: x.writer1, replaced: false },
      ownSteps: 1,
      usage: { ...tokens(1), costUsd: 0.05 },
      parts: { step: 2, role: "reviewer", replaced: false },
    });
    // Forked, never stepped: nothing of its own yet, so it has not parted.
    expect(row(x.f2)).toMatchObject({ status: "active", ownSteps: 0, usage: { costUsd: 0 }, parts: null });
    expect(row(x.f2)?.durationMs).toBeNull();
    // The counterfactuals part at the review whose reply they replaced: a step of their chain that no agent
    // ran, so not one they took (docs/workflows.md#counting-steps).
    expect(row(x.c1)).toMatchObject({
      status: "ended",
      outcome: { role: "reviewer", status: "rejected" },
      forkedAt: { step: 2, address: x.review1, replaced: true },
      stepCount: 2,
      ownSteps: 0,
      usage: { costUsd: 0 },
      durationMs: null,
      parts: { step: 2, role: "reviewer", replaced: true },
    });
    expect(row(x.c2)).toMatchObject({
      outcome: { role: "reviewer", status: "approved" },
      stepCount: 4,
      ownSteps: 2,
      usage: { ...tokens(2), costUsd: 0.06 },
      parts: { step: 2, role: "reviewer", address: x.c2Steps[1]?.address, replaced: true },
    });
    // A fork of a fork parts from the original where its parent did.
    expect(row(x.g)).toMatchObject({
      depth: 2,
      parent: x.c2,
      outcome: { role: "reviewer", status: "rejected" },
      forkedAt: { step: 3, replaced: false },
      stepCount: 4,
      ownSteps: 1,
      usage: { costUsd: 0.04 },
      parts: { step: 2, role: "reviewer", replaced: true },
    });

    const table = await ok(["compare", x.t, "--wide"]);
    expect(table.stderr).toBe("");
    const lines = table.stdout.trimEnd().split("\n");
    // STEPS counts the chain (inherited steps too, as tree and show do), TAKEN the steps the thread ran.
    expect(lines[0]).toMatch(/^THREAD +STATUS +OUTCOME +PARTS AT +STEPS +TAKEN +COST +TOKENS +DURATION$/);
    expect(lines[1]).toMatch(new RegExp(`^${x.t} +ended +reviewer approved +original +2 +2 +\\$0\\.0200 +240 +\\S+$`));
    expect(lines[2]).toMatch(
      new RegExp(`^  ${x.f1} +ended +reviewer rejected +2 reviewer +2 +1 +\\$0\\.0500 +120 +\\S+$`),
    );
    expect(lines[3]).toMatch(new RegExp(`^  ${x.f2} +active +- +1 +0 +\\$0\\.0000 +0$`));
    expect(lines[4]).toMatch(
      new RegExp(`^  ${x.c1} +ended +reviewer rejected +2 reviewer replaced +2 +0 +\\$0\\.0000 +0$`),
    );
    expect(lines[6]).toMatch(
      new RegExp(`^    ${x.g} +ended +reviewer rejected +2 reviewer replaced +4 +1 +\\$0\\.0400 +120 +\\S+$`),
    );
    expect(lines).toHaveLength(7);

    // Only the original's own forks; sorted by cost, the original first still.
    expect((await compare(x.t, "--direct")).rows.map((member) => member.thread)).toEqual([x.t, x.f1, x.f2, x.c1, x.c2]);
    const byCost = await compare(x.t.slice(0, 12), "--sort", "cost");
    expect(byCost.rows.map((member) => member.usage.costUsd)).toEqual([0.02, 0, 0, 0.04, 0.05, 0.06]);
  }, 120_000);

  it("named by a step, compares the forks made at it with the thread that recorded it", async () => {
    const x = await experiment();
    const result = await compare(x.review1);
    expect(result).toMatchObject({ original: x.t, at: { address: x.review1, step: 2 } });
    expect(result.rows.map((row) => row.thread)).toEqual([x.t, x.c1, x.c2, x.g]);
    expect(result.rows.map((row) => row.parts?.step ?? null)).toEqual([null, 2, 2, 2]);
    // A fork with no forks of its own: only itself, and a hint on stderr.
    const alone = await ok(["compare", x.f1]);
    expect(alone.stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(alone.stderr).toContain("no fork of it to compare with");
  }, 120_000);

  it("names what it cannot find or sort by, in one line", async () => {
    const missing = await temp.uwf(["compare", "01ZZZZZZZZZZZZZZZZZZZZZZZZ"]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr.trim().split("\n")[0]).toStartWith("uwf: ");
    expect(missing.stderr).toContain("01ZZZZZZZZZZZZZZZZZZZZZZZZ");
    const missingJson = await temp.uwf(["compare", "01ZZZZZZZZZZZZZZZZZZZZZZZZ", "--json"]);
    expect(errorResultSchema.parse(JSON.parse(missingJson.stderr.trim())).error.code).toBe("thread-not-found");

    const thread = await temp.startThread(join(temp.work, "verdict.yaml"));
    const shown = (await ok(["show", thread, "--json"])).json() as { workflowAddress: string };
    const notAThreadNode = await temp.uwf(["compare", shown.workflowAddress]);
    expect(notAThreadNode.exitCode).toBe(1);
    expect(notAThreadNode.stderr.trim().split("\n")[0]).toBe(
      `uwf: node ${shown.workflowAddress} is a workflow/1 node, not a thread start or step`,
    );
    const badSort = await temp.uwf(["compare", thread, "--sort", "colour"]);
    expect(badSort.exitCode).toBe(2);
    expect(badSort.stderr).toContain(
      "--sort colour: expected one of parts, steps, cost, tokens, duration, status, outcome",
    );
  }, 60_000);
});
