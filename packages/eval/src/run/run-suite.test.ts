import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createMemoryStore, type Store } from "@uwf/cas";
import { runWorker, startThread, stepUntilDone } from "@uwf/engine";
import { type Config, defaultConfig, type ThreadRecord } from "@uwf/protocol";
import {
  InvalidSuiteError,
  loadSuite,
  type RunSuiteOptions,
  runSuite,
  SUITE_BUDGET_REACHED,
  SuiteNotQueueableError,
  type SuiteRun,
  type SuiteRunKey,
} from "../index.ts";

const FIXTURES = resolve(import.meta.dir, "../../test/fixtures");
const LIST_WORKFLOW = join(FIXTURES, "workflows/fix-list.yaml");
const STATUS_WORKFLOW = join(FIXTURES, "workflows/fix-status.yaml");
const scenario = (name: string) => `scripted:${join(FIXTURES, "scenarios", `${name}.yaml`)}`;

let home: string;
let store: Store;
let ids = 0;
const newId = () => `01JSV1TE${String(++ids).padStart(18, "0")}`;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "uwf-suite-"));
  store = createMemoryStore();
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

let suites = 0;
/** Writes a suite file into the home and loads it; paths in it are absolute. */
function suiteOf(text: string) {
  const file = join(home, `suite-${++suites}.yaml`);
  writeFileSync(file, text);
  return loadSuite(file);
}

function options(overrides: Partial<RunSuiteOptions> = {}): RunSuiteOptions {
  return {
    store,
    config: defaultConfig(),
    home,
    runsDir: join(home, "runs"),
    parallel: 3,
    signal: new AbortController().signal,
    host: "suite-test",
    now: () => new Date(),
    newId,
    ...overrides,
  };
}

async function threadCount(): Promise<number> {
  return (await store.refs.listThreads({ limit: 0 })).total;
}

const key = (run: SuiteRunKey) => `${run.case}/${run.variant}/${run.repeat}`;

const TWO_BY_TWO = (redirectPrompt = "Fix the login redirect bug", assertions = "[]") => `name: login-fix
workflow: ${LIST_WORKFLOW}
repeat: 3
assert: ${assertions}
cases:
  - name: redirect
    prompt: ${redirectPrompt}
    inputs: { area: auth }
    fixture: ${join(FIXTURES, "fixtures/login-app")}
    assert: ${assertions}
  - name: logout
    promptFile: ${join(FIXTURES, "prompts/redirect.md")}
variants:
  - { name: first-try, agent: "${scenario("list-pass")}" }
  - { name: second-try, agent: "${scenario("list-retry")}" }
`;

describe("runSuite over cases", () => {
  it("runs 2 cases × 2 variants × 3 repeats with each variant's agent, the fixture copied into each run's folder", async () => {
    const suite = suiteOf(TWO_BY_TWO());
    const started: string[] = [];
    const finished: string[] = [];
    const result = await runSuite(
      suite,
      options({
        onRunStarted: (run) => started.push(`${key(run)} ${run.reused}`),
        onRunFinished: (run) => finished.push(key(run)),
      }),
    );
    expect(result.stoppedBy).toBeNull();
    expect(result.spentUsd).toBe(0);
    expect(result.maxCostUsd).toBeNull();
    const expectedKeys = ["redirect", "logout"].flatMap((name) =>
      ["first-try", "second-try"].flatMap((variant) => [0, 1, 2].map((repeat) => `${name}/${variant}/${repeat}`)),
    );
    expect(result.runs.map(key)).toEqual(expectedKeys);
    expect(started.sort()).toEqual(expectedKeys.map((entry) => `${entry} false`).sort());
    expect(finished.sort()).toEqual([...expectedKeys].sort());
    expect(await threadCount()).toBe(12);
    const threads = new Set(result.runs.map((run) => run.thread));
    expect(threads.size).toBe(12);
    for (const run of result.runs) {
      expect(run).toMatchObject({ reused: false, error: null });
      const record = (await store.refs.getThread(run.thread as string)) as ThreadRecord;
      expect(run.record).toEqual(record);
      // The variants' scenarios differ: the second check passes only at the second try.
      expect(record).toMatchObject({ status: "ended", stepCount: run.variant === "first-try" ? 2 : 4 });
      const start = (await store.objects.get(record.start)) as { prompt: string; cwd: string; inputs?: unknown };
      expect(start.cwd.startsWith(join(home, "runs", "login-fix"))).toBe(true);
      if (run.case === "redirect") {
        expect(start.prompt).toBe("Fix the login redirect bug");
        expect(start.inputs).toEqual({ area: "auth" });
        expect(readFileSync(join(start.cwd, "src/redirect.ts"), "utf8")).toBe('export const next = "/404";\n');
      } else {
        expect(start.prompt).toBe(readFileSync(join(FIXTURES, "prompts/redirect.md"), "utf8"));
        expect(existsSync(join(start.cwd, "src"))).toBe(false);
      }
    }
  });

  it("reuses the threads of an earlier run; `fresh` starts new ones; a changed prompt starts new ones for its case only", async () => {
    const first = await runSuite(suiteOf(TWO_BY_TWO()), options());
    // A file the first run's agent might have left in its folder stays: a reused run's folder is not copied again.
    const redirectRun = first.runs[0] as SuiteRun;
    const folder = ((await store.objects.get(redirectRun.record?.start as string)) as { cwd: string }).cwd;
    writeFileSync(join(folder, "left-by-agent.txt"), "kept");

    // New assertions (the suite's and a case's) score the same threads.
    const again = await runSuite(suiteOf(TWO_BY_TWO(undefined, "[ { outcome: approved } ]")), options());
    expect(await threadCount()).toBe(12);
    expect(again.runs.map((run) => [key(run), run.thread, run.reused, run.error])).toEqual(
      first.runs.map((run) => [key(run), run.thread, true, null]),
    );
    expect(readFileSync(join(folder, "left-by-agent.txt"), "utf8")).toBe("kept");

    const fresh = await runSuite(suiteOf(TWO_BY_TWO()), options({ fresh: true }));
    expect(await threadCount()).toBe(24);
    expect(fresh.runs.every((run) => !run.reused && run.error === null && run.record?.status === "ended")).toBe(true);
    const firstThreads = new Set(first.runs.map((run) => run.thread));
    expect(fresh.runs.some((run) => firstThreads.has(run.thread))).toBe(false);

    // After a fresh run, a plain one reuses the fresh threads.
    const afterFresh = await runSuite(suiteOf(TWO_BY_TWO()), options());
    expect(afterFresh.runs.map((run) => run.thread)).toEqual(fresh.runs.map((run) => run.thread));
    expect(await threadCount()).toBe(24);

    const changed = await runSuite(suiteOf(TWO_BY_TWO("Fix the redirect after login")), options());
    expect(await threadCount()).toBe(30);
    for (const [index, run] of changed.runs.entries()) {
      const before = fresh.runs[index] as SuiteRun;
      if (run.case === "redirect") expect(run).toMatchObject({ reused: false, error: null });
      else expect(run).toMatchObject({ reused: true, thread: before.thread });
    }
  });

  it("steps on a thread an interrupted run left active, and reports runs that could not start", async () => {
    const suite = suiteOf(`name: status
cases:
  - { name: only, prompt: Fix it }
variants:
  - { name: approved, agent: "${scenario("status-approved")}", workflow: ${STATUS_WORKFLOW} }
  - { name: changes, agent: "${scenario("status-changes")}", workflow: ${STATUS_WORKFLOW} }
  - { name: nowhere, workflow: not-registered }
`);
    const controller = new AbortController();
    // Ctrl-C after the first run's first step: no run starts after it, and the one stepping stops.
    const interrupted = await runSuite(
      suite,
      options({ parallel: 1, signal: controller.signal, onRunStarted: () => controller.abort("SIGINT") }),
    );
    expect(interrupted.stoppedBy).toBe("interrupted");
    expect(interrupted.runs.map((run) => [run.variant, run.error])).toEqual([
      ["approved", "interrupted before it finished"],
      ["changes", "interrupted before it finished"],
      ["nowhere", expect.stringContaining("not-registered")],
    ]);
    expect(interrupted.runs[0]?.record?.status).toBe("active");
    expect(interrupted.runs[1]?.thread).toBeNull();

    const resumed = await runSuite(suite, options());
    expect(resumed.runs.map((run) => [run.variant, run.reused, run.error, run.record?.status ?? null])).toEqual([
      ["approved", true, null, "ended"],
      ["changes", false, null, "ended"],
      ["nowhere", false, expect.stringContaining("not-registered"), null],
    ]);
    expect(resumed.runs[0]?.thread).toBe(interrupted.runs[0]?.thread as string);
    expect(resumed.runs[0]?.record?.outcome).toMatchObject({ status: "approved" });
    expect(resumed.runs[1]?.record).toMatchObject({ stepCount: 4, outcome: { status: "approved" } });
  });

  it("stops starting steps and threads once the suite has spent its max_cost_usd", async () => {
    const suite = suiteOf(`name: costly
workflow: ${LIST_WORKFLOW}
repeat: 5
max_cost_usd: 0.1
cases:
  - { name: only, prompt: Fix it }
variants:
  - name: paid
    agent: costly
    config:
      agents:
        costly: { command: /bin/sh, args: ["${join(FIXTURES, "agents/costly.sh")}"] }
`);
    // The caller's limit is lower than the file's: it applies.
    const result = await runSuite(suite, options({ parallel: 1, maxCostUsd: 0.03 }));
    expect(result.maxCostUsd).toBe(0.03);
    expect(result.stoppedBy).toBe("max-cost");
    expect(result.spentUsd).toBe(0.03);
    // The threads are all started at once (no agent runs for that); the budget stops their steps.
    expect(result.runs.map((run) => [run.repeat, run.record?.status, run.record?.stepCount, run.error])).toEqual([
      [0, "ended", 2, null],
      [1, "active", 1, SUITE_BUDGET_REACHED],
      [2, "active", 0, SUITE_BUDGET_REACHED],
      [3, "active", 0, SUITE_BUDGET_REACHED],
      [4, "active", 0, SUITE_BUDGET_REACHED],
    ]);
    expect(await threadCount()).toBe(5);

    // Run again with more to spend, the suite steps the threads it left on, and starts none.
    const more = await runSuite(suite, options({ parallel: 2 }));
    expect(more.maxCostUsd).toBe(0.1);
    expect(more.runs.map((run) => [run.reused, run.record?.status, run.error])).toEqual(
      Array.from({ length: 5 }, () => [true, "ended", null]),
    );
    expect(more.spentUsd).toBe(0.07);
    expect(await threadCount()).toBe(5);
  });

  it("gives each thread the suite's budget", async () => {
    const suite = suiteOf(`name: budget
workflow: ${LIST_WORKFLOW}
budget: { max_steps: 3 }
cases: [ { name: only, prompt: Fix it } ]
variants: [ { agent: "${scenario("list-retry")}" } ]
`);
    const [run] = (await runSuite(suite, options())).runs;
    expect(run?.record).toMatchObject({
      status: "suspended",
      stepCount: 3,
      budget: { maxSteps: 3, exceeded: "maxSteps" },
    });
    expect(run?.error).toBeNull();
  });
});

describe("runSuite with queue", () => {
  it("refuses variants that set an agent, a model or config: workers use their own", async () => {
    const suite = suiteOf(TWO_BY_TWO());
    await expect(runSuite(suite, options({ queue: true }))).rejects.toThrow(SuiteNotQueueableError);
    await expect(runSuite(suite, options({ queue: true }))).rejects.toMatchObject({
      code: "usage",
      data: { variants: ["first-try", "second-try"] },
    });
    expect(await threadCount()).toBe(0);
  });

  it("starts the threads queued and waits for a worker to finish them", async () => {
    const suite = suiteOf(`name: queued
workflow: ${LIST_WORKFLOW}
repeat: 3
cases: [ { name: only, prompt: Fix it } ]
`);
    const stop = new AbortController();
    const config: Config = { ...defaultConfig(), defaultAgent: scenario("list-pass") };
    const worker = runWorker({
      store,
      config,
      home,
      host: "suite-test",
      name: "suite-test:1",
      now: () => new Date(),
      concurrency: 2,
      pollMs: 10,
      retry: { retries: 0, backoffMs: 1, backoffMaxMs: 1 },
      stop: stop.signal,
      graceMs: 1000,
      abort: new AbortController().signal,
      onEvent: async () => {},
      onStderr: () => {},
      onWarning: () => {},
    });
    try {
      const result = await runSuite(suite, options({ queue: true, pollMs: 10 }));
      expect(result.runs.map((run) => [run.repeat, run.record?.status, run.record?.queued, run.error])).toEqual([
        [0, "ended", true, null],
        [1, "ended", true, null],
        [2, "ended", true, null],
      ]);
    } finally {
      stop.abort("SIGTERM");
      await worker;
    }
  });
});

describe("runSuite over forks (`from:`)", () => {
  it("forks the thread `count` times per variant, steps each fork with its variant's agent, and reuses them", async () => {
    const origin = await startThread({
      store,
      config: defaultConfig(),
      workflowReference: LIST_WORKFLOW,
      prompt: "Fix the redirect",
      cwd: home,
      home,
      now: () => new Date(),
      newId,
    });
    const stepped = await stepUntilDone({
      store,
      config: defaultConfig(),
      home,
      threadId: origin.id,
      maxSteps: 1,
      defaultAgent: scenario("list-pass"),
      signal: new AbortController().signal,
      host: "suite-test",
      now: () => new Date(),
      onProgress: () => {},
      onStderr: () => {},
    });
    const fixerStep = stepped.record.head;
    const text = `name: forks
from: ${origin.id}
count: 3
variants:
  - { name: pass, agent: "${scenario("list-pass")}" }
  - { name: retry, agent: "${scenario("list-retry")}" }
`;
    const result = await runSuite(suiteOf(text), options());
    expect(result.runs.map((run) => [run.case, run.variant, run.repeat, run.reused, run.error])).toEqual([
      [null, "pass", 0, false, null],
      [null, "pass", 1, false, null],
      [null, "pass", 2, false, null],
      [null, "retry", 0, false, null],
      [null, "retry", 1, false, null],
      [null, "retry", 2, false, null],
    ]);
    for (const run of result.runs) {
      expect(run.record?.forkedFrom).toMatchObject({ thread: origin.id, address: fixerStep, step: 1 });
      // After the shared fixer step: one check, or a failed check, a second fix and a check.
      expect(run.record).toMatchObject({ status: "ended", stepCount: run.variant === "pass" ? 2 : 4 });
    }
    expect(await threadCount()).toBe(7);

    const again = await runSuite(suiteOf(text), options());
    expect(again.runs.map((run) => [run.thread, run.reused])).toEqual(result.runs.map((run) => [run.thread, true]));
    expect(await threadCount()).toBe(7);

    // `fresh` makes new forks.
    const fresh = await runSuite(suiteOf(text), options({ fresh: true }));
    expect(fresh.runs.every((run) => !run.reused && run.record?.status === "ended")).toBe(true);
    expect(await threadCount()).toBe(13);

    // The node named by its address: the same fork point, new forks (`from:` as written keys them).
    const byAddress = await runSuite(suiteOf(text.replace(origin.id, fixerStep)), options());
    expect(byAddress.runs.every((run) => !run.reused && run.record?.status === "ended")).toBe(true);
    expect(byAddress.runs.every((run) => run.record?.forkedFrom?.address === fixerStep)).toBe(true);
    expect(await threadCount()).toBe(19);
  });

  it("refuses a `from:` that names nothing before any run is planned, at its line", async () => {
    const refused = runSuite(suiteOf("name: none\nfrom: 01JZZZZZZZZZZZZZZZZZZZZZZZ\ncount: 2\n"), options());
    await expect(refused).rejects.toBeInstanceOf(InvalidSuiteError);
    await expect(refused).rejects.toMatchObject({
      problems: [
        { line: 2, column: 1, path: "from", message: expect.stringContaining("from 01JZZZZZZZZZZZZZZZZZZZZZZZ: ") },
      ],
    });
  });
});
