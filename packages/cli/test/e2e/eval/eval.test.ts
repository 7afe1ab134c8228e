import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type EvalResult,
  evalDiffResultSchema,
  evalListResultSchema,
  evalResultSchema,
  forksResultSchema,
  stepResultSchema,
} from "@uwf/protocol";
import {
  type BrowserPage,
  chromiumSkipReason,
  type HeadlessChromium,
  launchChromium,
} from "../../../../../test/kit/browser/headless-chromium.ts";
import { errorOf } from "../../helpers/error-of.ts";
import { createTempHome, FIXTURES, type TempHome } from "../../helpers/temp-home.ts";

/**
 * `uwf eval` end to end: a suite of 2 cases × 2 variants (scripted agents that differ, one per workflow
 * style) × 5 repeats, scored by a JSONata assertion, a command scorer and a judge role (a command agent
 * reading the transcript); the gate's exit codes; rescore; a baseline; the HTML page in Chromium; and a
 * report of a fork family made with `fork --output DIR`. One home for the file: the suite's threads are
 * run once and reused, as a user re-running a suite would.
 */
let temp: TempHome;
let suite: string;

beforeAll(() => {
  temp = createTempHome();
  cpSync(join(FIXTURES, "eval"), join(temp.work, "eval"), { recursive: true });
  suite = join(temp.work, "eval", "suite.yaml");
  temp.writeConfig(
    ["agents:", `  judge-sh: { command: sh, args: ["${join(temp.work, "eval", "judge.sh")}"] }`, ""].join("\n"),
  );
});
afterAll(() => temp.cleanup());

async function evalJson(args: string[], env: Record<string, string> = {}) {
  const run = await temp.uwf(["eval", ...args, "--json"], { env });
  return { run, result: run.stdout === "" ? null : evalResultSchema.parse(run.json()) };
}

function variant(result: EvalResult, name: string) {
  const found = result.summary.variants.find((each) => each.variant === name);
  if (found === undefined) throw new Error(`no variant ${name}`);
  return found;
}

let first: EvalResult;

describe("uwf eval --suite", () => {
  it("runs 2 cases × 2 variants × 5 repeats and scores them with an expression, a command scorer and a judge", async () => {
    const { run, result } = await evalJson(["--suite", suite]);
    expect(run.exitCode).toBe(0);
    if (result === null) throw new Error(run.stderr);
    first = result;
    expect(result.name).toBe("login-fix");
    expect(result.source).toMatchObject({ kind: "suite", file: suite });
    expect(result.assertions.map((assertion) => [assertion.name, assertion.kind])).toEqual([
      ["approved", "jsonata"],
      ["files", "command"],
      ["judged", "judge"],
    ]);
    expect(result.samples).toHaveLength(20);
    expect(result.unstarted).toEqual([]);
    const careful = variant(result, "careful");
    const hasty = variant(result, "hasty");
    expect(careful).toMatchObject({ samples: 10, passed: 10, failed: 0, errored: 0, passRate: 1 });
    expect(hasty).toMatchObject({ samples: 10, passed: 0, failed: 10, errored: 0, passRate: 0 });
    expect(careful.cases.map((each) => each.case)).toEqual(["redirect", "logout"]);
    expect(careful.interval?.low).toBeGreaterThan(0.6);
    expect(careful.outcomes).toEqual([{ status: "ended", outcome: "approved", role: "reviewer", count: 10 }]);
    expect(hasty.outcomes).toEqual([{ status: "ended", outcome: "rejected", role: "reviewer", count: 10 }]);
    expect(careful.paths).toEqual([{ path: ["coder", "reviewer"], count: 10 }]);
    // Each sample has its three scores; the judge's links its judging thread, an ordinary thread.
    const sample = result.samples.find((each) => each.variant === "hasty" && each.case === "logout");
    expect(sample?.scores.map((score) => [score.assertion, score.verdict])).toEqual([
      ["approved", "failed"],
      ["files", "failed"],
      ["judged", "failed"],
    ]);
    expect(sample?.scores[1]?.reason).toBe("1 file");
    const judge = sample?.scores[2]?.judge;
    expect(judge?.thread).toMatch(/^[0-9A-Z]{26}$/);
    expect(await temp.showThread(judge?.thread ?? "")).toMatchObject({ workflow: "eval-judge", status: "ended" });
    expect(await temp.threadCount("--workflow", "eval-judge")).toBe(20);
    // The fixture folder was copied into each run's own working directory.
    const shown = await temp.uwf(["show", sample?.thread ?? "", "--json"]);
    expect(shown.exitCode).toBe(0);
    // The report is stored: listed, and shown as it was.
    const listed = evalListResultSchema.parse((await temp.uwf(["eval", "list", "--json"])).json());
    expect(listed.reports.map((report) => report.report)).toContain(result.report);
    const shownReport = await evalJson(["show", result.report]);
    expect(shownReport.result?.summary).toEqual(result.summary);
  }, 60_000);

  it("prints a table on a terminal and Markdown to paste into a pull request", async () => {
    const table = await temp.uwf(["eval", "show", first.report]);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toContain("careful");
    expect(table.stdout).toContain("hasty");
    expect(table.stdout).toContain("1.00");
    const markdown = await temp.uwf(["eval", "show", first.report.slice(0, 12), "--markdown"]);
    expect(markdown.exitCode).toBe(0);
    expect(markdown.stdout).toContain("| careful");
    expect(markdown.stdout).toMatch(/^#+ /m);
    const both = await temp.uwf(["eval", "show", first.report, "--markdown", "--json"]);
    expect(both.exitCode).toBe(2);
    expect(both.stdout).toBe("");
    expect(errorOf(both.stderr).message).toContain("--markdown prints the report as Markdown");
  });

  it("reuses the threads and judges of an earlier run, starting none", async () => {
    const before = await temp.threadCount();
    const { run, result } = await evalJson(["--suite", suite]);
    expect(run.exitCode).toBe(0);
    expect(await temp.threadCount()).toBe(before);
    expect(result?.samples.map((sample) => sample.thread).sort()).toEqual(
      first.samples.map((sample) => sample.thread).sort(),
    );
    expect(result?.report).not.toBe(first.report);
  });

  it("gates CI: exit 0 when the gate holds, 3 when it does not, 1 when samples errored", async () => {
    const held = await evalJson(["--suite", suite, "--min-pass-rate", "0.4"]);
    expect(held.run.exitCode).toBe(0);
    expect(held.result?.gateHeld).toBe(true);

    const failed = await evalJson(["--suite", suite, "--min-pass-rate", "0.9", "--min-case-pass-rate", "0.5"]);
    expect(failed.run.exitCode).toBe(3);
    expect(failed.result?.gateHeld).toBe(false);
    expect(failed.result?.gateChecks.filter((check) => !check.held).map((check) => check.check)).toEqual([
      "min-pass-rate",
      "min-case-pass-rate",
    ]);
    expect(errorOf(failed.run.stderr)).toMatchObject({ code: "eval-gate-failed" });
    // The report was stored all the same.
    expect((await temp.uwf(["eval", "show", failed.result?.report ?? "", "--json"])).exitCode).toBe(3);

    const errored = await evalJson(["--suite", suite, "--min-pass-rate", "0.4"], { SCORER_CRASH: "1" });
    expect(errored.run.exitCode).toBe(1);
    expect(errorOf(errored.run.stderr)).toMatchObject({ code: "eval-errored", data: { errored: 20 } });
    expect(errored.result?.samples.every((sample) => sample.verdict === "errored")).toBe(true);
    expect(errored.result?.samples[0]?.scores[1]?.error).toContain("scorer crashed");

    const allowed = await evalJson(["--suite", suite, "--min-pass-rate", "0.4", "--allow-errors"], {
      SCORER_CRASH: "1",
    });
    expect(allowed.run.exitCode).toBe(3);
    expect(errorOf(allowed.run.stderr)).toMatchObject({ code: "eval-gate-failed" });
  }, 60_000);

  it("rescores a report with a new assertion, starting no thread", async () => {
    const before = await temp.threadCount();
    const { run, result } = await evalJson(["rescore", first.report, "--assert", "short=totals.steps <= 1"]);
    if (run.exitCode !== 0) console.error(run.stderr);
    expect(run.exitCode).toBe(0);
    expect(await temp.threadCount()).toBe(before);
    expect(result?.rescoredFrom).toBe(first.address);
    expect(result?.assertions.map((assertion) => assertion.name)).toEqual(["approved", "files", "judged", "short"]);
    expect(result?.samples.map((sample) => sample.head)).toEqual(first.samples.map((sample) => sample.head));
    expect(result?.samples.every((sample) => sample.verdict === "failed")).toBe(true);
    expect(result?.summary.overall.assertions.find((each) => each.name === "short")).toMatchObject({
      mean: 0,
      failed: 20,
    });
  });

  it("names the cases that regressed against a baseline variant and between two reports", async () => {
    const { result } = await evalJson(["show", first.report, "--baseline", "careful"]);
    const comparison = result?.comparisons[0];
    expect(comparison).toMatchObject({ baseline: { variant: "careful" }, current: { variant: "hasty" } });
    expect(comparison?.regressed.map((change) => change.case).sort()).toEqual(["logout", "redirect"]);
    expect(comparison?.metrics.find((metric) => metric.metric === "passRate")).toMatchObject({
      baseline: 1,
      current: 0,
      delta: -1,
    });

    const flipped = await evalJson(["rescore", first.report, "--replace", "--assert", "outcome: rejected"]);
    const diff = await temp.uwf(["eval", "diff", first.report, flipped.result?.report ?? "", "--json"]);
    expect(diff.exitCode).toBe(0);
    const careful = evalDiffResultSchema
      .parse(diff.json())
      .comparisons.find((each) => each.current.variant === "careful");
    expect(careful?.regressed.map((change) => change.case).sort()).toEqual(["logout", "redirect"]);
    const text = await temp.uwf(["eval", "diff", first.report, flipped.result?.report ?? ""]);
    expect(text.stdout).toContain("redirect");
    expect(text.stdout.toLowerCase()).toContain("regressed");
  });

  it("refuses a suite with a mistake at FILE:LINE:COL, exit 2, running nothing", async () => {
    const bad = join(temp.work, "eval", "bad.yaml");
    writeFileSync(bad, "name: bad\nworkflow: review.yaml\ncases:\n  - name: one\n    promt: typo\n");
    const before = await temp.threadCount();
    const run = await temp.uwf(["eval", "--suite", bad]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`${bad}:5:5`);
    const counted = await temp.uwf(["eval", "--suite", suite, "--count", "3"]);
    expect(counted.exitCode).toBe(2);
    expect(counted.stderr).toContain("--count sets how many forks of `from:`");
    expect(await temp.threadCount()).toBe(before);
  });
});

const skipReason = chromiumSkipReason();
if (skipReason !== null) console.warn(`eval.test.ts: ${skipReason}`);

describe.skipIf(skipReason !== null)("uwf eval --html", () => {
  let chromium: HeadlessChromium;
  beforeAll(async () => {
    chromium = await launchChromium();
  });
  afterAll(async () => chromium?.close());

  it("writes one self-contained page whose charts render in headless Chromium without console errors", async () => {
    const file = join(temp.work, "report.html");
    const run = await temp.uwf(["eval", "show", first.report, "--html", file, "--json"]);
    expect(run.exitCode).toBe(0);
    expect(evalResultSchema.parse(run.json()).html).toBe(file);
    expect(existsSync(file)).toBe(true);
    const page = await chromium.openPage(pathToFileURL(file).href);
    // Chart.js draws again when its resize observer fires, which on a busy machine may follow the load event.
    let state = await chartState(page);
    for (let tries = 0; tries < 50 && (state.charts === 0 || state.painted < state.charts); tries++) {
      await Bun.sleep(100);
      state = await chartState(page);
    }
    expect(state.charts).toBeGreaterThanOrEqual(4);
    expect(state.painted).toBe(state.charts);
    expect(state.text).toContain(first.samples[0]?.thread ?? "?");
    expect(page.problems).toEqual([]);
    await page.close();
  });
});

function chartState(page: BrowserPage) {
  return page.evaluate<{ charts: number; painted: number; text: string }>(`(() => {
      const canvases = [...document.querySelectorAll("canvas")];
      const painted = canvases.filter((canvas) => {
        // Until layout gives it a size, a canvas has nothing to read (getImageData throws on a width of 0).
        if (canvas.width === 0 || canvas.height === 0) return false;
        const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
        for (let index = 3; index < pixels.length; index += 4) if (pixels[index] !== 0) return true;
        return false;
      });
      return { charts: Object.keys(Chart.instances).length, painted: painted.length, text: document.body.innerText };
    })()`);
}

describe("uwf eval --forks-of", () => {
  it("scores a family of counterfactual forks made with fork --output DIR", async () => {
    const careful = `scripted:${join(temp.work, "eval", "careful.scenario.yaml")}`;
    const ran = stepResultSchema.parse(
      (
        await temp.uwf(["run", join(temp.work, "eval", "review.yaml"), "-p", "Fix it", "--agent", careful, "--json"])
      ).json(),
    );
    const review = ran.steps[1]?.address ?? "";
    const replies = join(temp.work, "replies");
    mkdirSync(replies);
    writeFileSync(join(replies, "1.md"), "---\n$status: rejected\nseverity: major\n---\nNo test.\n");
    writeFileSync(join(replies, "2.md"), "---\n$status: rejected\nseverity: minor\n---\nA nit.\n");
    writeFileSync(join(replies, "3.md"), "---\n$status: approved\nseverity: none\n---\nFine.\n");
    const forks = forksResultSchema.parse(
      (await temp.uwf(["fork", review, "--output", replies, "--json"])).json(),
    ).forks;
    expect(forks).toHaveLength(3);
    const { run, result } = await evalJson([
      "--forks-of",
      ran.thread,
      "--assert",
      "outcome: approved",
      "--assert",
      'minor=final.severity != "major"',
    ]);
    expect(run.exitCode).toBe(0);
    expect(result?.source).toMatchObject({ kind: "selection", forksOf: { thread: ran.thread, recursive: false } });
    expect(result?.samples.map((sample) => sample.thread).sort()).toEqual(forks.map((fork) => fork.thread).sort());
    expect(result?.summary.overall).toMatchObject({ samples: 3, passed: 1, failed: 2 });
    expect(result?.summary.overall.assertions.find((each) => each.name === "minor")).toMatchObject({
      passed: 2,
      failed: 1,
    });
    expect(result?.summary.overall.fields.find((field) => field.field === "severity")).toMatchObject({
      kind: "categorical",
    });
  });

  it("rescores forks with the steps, tokens and duration of their own, as first scored", async () => {
    const careful = `scripted:${join(temp.work, "eval", "careful.scenario.yaml")}`;
    const ran = stepResultSchema.parse(
      (
        await temp.uwf(["run", join(temp.work, "eval", "review.yaml"), "-p", "Fix it", "--agent", careful, "--json"])
      ).json(),
    );
    const forks = await temp.uwf(["fork", ran.steps[0]?.address ?? "", "--count", "2"]);
    expect(forks.exitCode).toBe(0);
    const stepped = await temp.uwf(["step", "-", "--all", "--agent", careful], { stdin: forks.stdout });
    expect(stepped.exitCode).toBe(0);
    const scored = await evalJson(["--forks-of", ran.thread, "--assert", "outcome: approved"]);
    expect(scored.result?.samples.map((sample) => sample.steps)).toEqual([1, 1]);
    const rescored = await evalJson(["rescore", scored.result?.report ?? "", "--assert", "own=totals.steps = 1"]);
    expect(rescored.run.exitCode).toBe(0);
    const measures = (result: EvalResult | null) =>
      result?.samples.map(({ thread, steps, tokens, durationMs }) => ({ thread, steps, tokens, durationMs }));
    expect(measures(rescored.result)).toEqual(measures(scored.result));
    expect(rescored.result?.summary.overall).toMatchObject({ samples: 2, passed: 2 });
  });

  it("refuses to evaluate nothing, exit 2", async () => {
    const run = await temp.uwf(["eval"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("nothing to evaluate");
  });
});
