import { describe, expect, it } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import { evalResultSchema } from "@uwf/protocol";
import { errorOf } from "../../helpers/error-of.ts";
import { fixtureAgentsConfig, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome({ setUp: (home) => home.writeConfig(fixtureAgentsConfig(["sleepy"]).join("\n")) });

/** Writes a suite file in the work folder and returns its path. */
function suiteFile(name: string, text: string): string {
  const file = join(temp.work, `${name}.yaml`);
  writeFileSync(file, text);
  return file;
}

const casesSuite = (repeat: number | string, variants = `  - name: scripted\n    agent: ${SCRIPTED}\n`) =>
  `name: many\nworkflow: ${LINEAR}\nrepeat: ${repeat}\ncases:\n  - name: one\n    prompt: Write hello.txt\nvariants:\n${variants}assert:\n  - { name: ended, expr: 'status = "ended"' }\n`;

describe("uwf eval --suite: runs one command may start", () => {
  it("refuses repeat: 1000000000 at once (exit 2, invalid-suite, naming --max-runs), starting nothing", async () => {
    const file = suiteFile("billion", casesSuite(1_000_000_000));
    const started = Date.now();
    const run = await temp.uwf(["eval", "--suite", file]);
    expect(run.exitCode).toBe(2);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(run.stderr).toContain(
      `${file}:3:1: repeat: 1 case(s) × 1 variant(s) × repeat 1000000000 is 1000000000 runs`,
    );
    expect(run.stderr).toContain("more than the 1000 one command starts; give --max-runs 1000000000 to run them");
    expect(run.stdout).toBe("");
    expect(await temp.threadCount()).toBe(0);
  }, 60_000);

  it("refuses a from: suite's count: 99999999999 and --count alike", async () => {
    const thread = await temp.startThread(LINEAR);
    const file = suiteFile("forks", `name: forks\nfrom: ${thread}\ncount: 99999999999\nassert: []\n`);
    const run = await temp.uwf(["eval", "--suite", file, "--json"]);
    expect(run.exitCode).toBe(2);
    expect(errorOf(run.stderr)).toMatchObject({ code: "invalid-suite" });
    expect(run.stderr).toContain("count 99999999999 is 99999999999 runs");
    const flagged = await temp.uwf(["eval", "--suite", file, "--count", "5000"]);
    expect(flagged.exitCode).toBe(2);
    expect(flagged.stderr).toContain("give --max-runs 5000 to run them");
    expect(await temp.threadCount()).toBe(1);
  }, 60_000);

  it("runs more than the default with --max-runs, and refuses more than --max-runs allows", async () => {
    const file = suiteFile("three", casesSuite(3));
    const refused = await temp.uwf(["eval", "--suite", file, "--max-runs", "2"]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("is 3 runs, more than the 2 one command starts; give --max-runs 3");
    expect(await temp.threadCount()).toBe(0);
    const run = await temp.uwf(["eval", "--suite", file, "--max-runs", "3", "--json"]);
    expect(run.exitCode).toBe(0);
    expect(evalResultSchema.parse(run.json()).samples).toHaveLength(3);
    expect((await temp.uwf(["eval", "--max-runs", "3"])).exitCode).toBe(2);
  }, 60_000);
});

describe("uwf eval --suite: mistakes found before anything starts", () => {
  it("refuses a from: that names no thread (exit 2, at its line), starting nothing", async () => {
    const file = suiteFile("nowhere", "name: nowhere\nfrom: 01ZZZZZZZZZZZZZZZZZZZZZZZZ\ncount: 2\nassert: []\n");
    const run = await temp.uwf(["eval", "--suite", file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`${file}:2:1: from: from 01ZZZZZZZZZZZZZZZZZZZZZZZZ: no thread`);
    expect(await temp.threadCount()).toBe(0);
    expect((await temp.uwf(["eval", "list", "--json"])).json<{ reports: unknown[] }>().reports).toEqual([]);
  }, 60_000);

  it("refuses a variant whose agent: no config defines (exit 2), starting nothing", async () => {
    const variants = `  - name: good\n    agent: ${SCRIPTED}\n  - name: typo\n    agent: sleepyy\n`;
    const file = suiteFile("typo", casesSuite(1, variants));
    const run = await temp.uwf(["eval", "--suite", file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      `${file}:11:5: variants[1].agent: unknown agent "sleepyy"; known agents: sleepy, or scripted:FILE`,
    );
    expect(await temp.threadCount()).toBe(0);
  }, 60_000);
});

describe("uwf eval --suite: Ctrl-C and SIGTERM", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s stops the running step and starts nothing more: exit 130, the report stored and printed",
    async (signal) => {
      const pidFile = join(temp.work, "agent.pid");
      const variants = "  - name: slow\n    agent: sleepy\n";
      const file = suiteFile("slow", casesSuite(3, variants));
      const child = temp.spawn(["eval", "--suite", file, "--parallel", "1", "--json"], {
        env: { PID_FILE: pidFile },
      });
      await waitFor(() => existsSync(pidFile), { what: "the first run's agent", timeoutMs: 30_000, intervalMs: 25 });
      child.kill(signal);
      expect(await child.exited).toBe(130);
      const stdout = await new Response(child.stdout as ReadableStream).text();
      const stderr = await new Response(child.stderr as ReadableStream).text();
      const report = evalResultSchema.parse(JSON.parse(stdout));
      expect(errorOf(stderr)).toMatchObject({ code: "interrupted", data: { signal, report: report.report } });
      // The three threads were started together; the first run's step was interrupted (its thread
      // unchanged), and the two after it never stepped: all three are errored samples.
      expect(report.samples.map((sample) => sample.verdict)).toEqual(["errored", "errored", "errored"]);
      expect(report.samples.map((sample) => sample.error)).toEqual(Array(3).fill("interrupted before it finished"));
      const threads = (await temp.uwf(["list", "--json"])).json<{ threads: { status: string; stepCount: number }[] }>();
      expect(threads.threads.map(({ status, stepCount }) => ({ status, stepCount }))).toEqual(
        Array(3).fill({ status: "active", stepCount: 0 }),
      );
      const listed = (await temp.uwf(["eval", "list", "--json"])).json<{ reports: { report: string }[] }>().reports;
      expect(listed.map((entry) => entry.report)).toEqual([report.report]);
    },
    60_000,
  );
});
