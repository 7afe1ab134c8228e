/**
 * Issue 32's benchmarks (due work: suspension deadlines and schedules), on the embedded store of fresh homes:
 * 1. the idle cost a worker pays each poll round: one in-process pass of expireDueSuspensions then
 *    fireDueSchedules, as run-worker.ts's due passes run them, over 1,000 suspended threads (half of them
 *    suspended by a role with `suspendTimeout: 24h`, none due) and 100 schedules (none due): the first pass
 *    (the process's caches cold) and the steady state (the median of the passes after it);
 * 2. the same pass over the same kind of store when 100 of the suspensions are due (each times out to its
 *    role's `$timeout` edge) and 20 of the schedules are due (each fire creates its thread queued, as a
 *    worker's fires do): in total and per item;
 * 3. `uwf tick` (a process: open the store, both passes, print) with nothing due on that store, against the
 *    floor (`bun -e 0`) measured round-robin with it.
 * The stores are built in-process through the engine: threads started by startThreads and suspended by
 * stepThread with the scripted agent (the due ones with a clock 25 hours back, so their suspension began
 * then), schedules made by buildSchedule and stored with the ref store's createSchedule (the due ones as
 * created two hours back, with a daily fire time an hour back). Each measured due pass runs on a fresh copy
 * of its store, made and synced outside the timing.
 * Run alone with `bun bench/lib/due-work-benchmarks.ts [--smoke]` (builds the binary if missing).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { openFileStore, type Store } from "../../packages/cas/src/index.ts";
import {
  buildSchedule,
  COMMAND_FIELD_NAMES,
  expireDueSuspensions,
  fireDueSchedules,
  registerWorkflowFile,
  startThreads,
  stepThread,
} from "../../packages/engine/src/index.ts";
import { type Config, defaultConfig } from "../../packages/protocol/src/index.ts";
import { type MeasureProcessOptions, measureInterleaved, round, type Summary, summarize } from "./measure.ts";
import { type AloneOptions, runBenchmarkAlone, targetLines } from "./run-benchmark-alone.ts";
import { scriptedStepOptions } from "./scripted-step-options.ts";
import { ulidAt } from "./ulid.ts";

const _repositoryRoot = resolve(import.meta.dir, "../..");
/** The idle target: a steady pass of both, with nothing due, under this many milliseconds. */
export const IDLE_PASS_TARGET_MS = 20;
/** The due suspensions' role waits this long; the due ones suspended this much longer ago. */
const SUSPEND_TIMEOUT = "24h";
const HOUR_MS = 3_600_000;
const SUSPENDED_AGO_MS = 25 * HOUR_MS;
/** expireDueSuspensions' page of suspended threads. */
const LISTING_PAGE = 500;
/** Threads stepped at once while a store is built (not measured). */
const BUILD_LANES = 4;

export interface DueWorkPlan {
  /** Suspended threads in each store; half of them of the role with `suspendTimeout`. */
  suspended: number;
  schedules: number;
  /** Of the timed suspensions, how many are due in the due store; of the schedules, how many. */
  dueSuspensions: number;
  dueSchedules: number;
  /** Idle passes after the first one (the steady state's samples). */
  passes: number;
  /** Due passes measured, each on a fresh copy of the due store, after one not kept. */
  dueRuns: number;
  /** `uwf tick` runs (and floor runs), after `warmup` not kept. */
  tickRuns: number;
  warmup: number;
}

export interface DuePassTimes {
  /** expireDueSuspensions, then fireDueSchedules, then both. */
  suspensions: Summary;
  schedules: Summary;
  total: Summary;
}

export interface DueWorkBenchResult {
  suspended: number;
  /** Of them, suspended by the role with `suspendTimeout: 24h`. */
  timed: number;
  schedules: number;
  /** Seconds to build the idle store and the due store (in-process, through the engine). */
  buildSeconds: { idle: number; due: number };
  idle: {
    /** The process's first pass over the store (workflow and head caches cold), ms. */
    first: { suspensionsMs: number; schedulesMs: number; totalMs: number };
    /** The passes after it. */
    steady: DuePassTimes;
    /**
     * Listing the suspended threads alone, in pages of 500 as expireDueSuspensions lists them (the part of
     * its pass that grows with them), measured between the passes.
     */
    listing: Summary;
    targetMs: number;
  };
  due: DuePassTimes & {
    dueSuspensions: number;
    dueSchedules: number;
    /** Medians of each pass divided by its items: ms per suspension timed out, per schedule fired. */
    perSuspensionMs: number;
    perScheduleMs: number;
    /** The whole pass's median divided by every item. */
    perItemMs: number;
  };
  /**
   * `uwf tick` with nothing due on the idle store, the same on an empty store (what a tick costs whatever the
   * store holds), and `bun -e 0`, the three measured round-robin.
   */
  tick: { summary: Summary; emptyStore: Summary; floor: Summary; floorMultiple: number };
  /** The 1, 5 and 15 minute load averages when the measuring began and ended. */
  loadAverage: { start: number[]; end: number[] };
}

const GATE_WORKFLOW = `name: bench-gate
description: half the threads wait for an approval for up to ${SUSPEND_TIMEOUT}, half for an answer with no deadline
inputs:
  type: object
  properties:
    gate: { type: string, enum: [approval, question] }
  required: [gate]
roles:
  approver:
    goal: Ask whether to ship.
    suspendTimeout: ${SUSPEND_TIMEOUT}
  asker:
    goal: Ask a question.
  chaser:
    goal: Remind the team.
conditions:
  approval:
    expression: 'start.inputs.gate = "approval"'
graph:
  $START:
    - { role: approver, condition: approval, prompt: "Ask whether to ship." }
    - { role: asker, prompt: "Ask your question." }
  approver:
    - { role: chaser, condition: $timeout, prompt: "Nobody answered within a day: remind the team." }
    - { role: $END, prompt: Done. }
  asker:
    - { role: $END, prompt: Done. }
  chaser:
    - { role: $END, prompt: Done. }
`;

const scenarioOf = (role: string) =>
  JSON.stringify({ steps: [{ role, output: { $status: "$SUSPEND", reason: "Waiting for a person." } }] });

export interface DueWorkFiles {
  workflow: string;
  approver: string;
  asker: string;
}

/** What one store holds: suspended threads and schedules, and how many of each are due. */
export interface DueWorkStoreShape {
  suspended: number;
  schedules: number;
  dueSuspensions: number;
  dueSchedules: number;
}

export async function measureDueWork(options: AloneOptions<DueWorkPlan>): Promise<DueWorkBenchResult> {
  const { plan, progress } = options;
  const root = mkdtempSync(join(options.temporaryRoot, "due-work-bench-"));
  const files = writeDueWorkFiles(root);
  const timed = Math.floor(plan.suspended / 2);
  if (plan.dueSuspensions > timed || plan.dueSchedules > plan.schedules) throw new Error("more due than there are");
  try {
    progress(`due work: building a store of ${plan.suspended} suspended threads and ${plan.schedules} schedules`);
    const idleHome = join(root, "idle-home");
    const idleBuild = await buildDueWorkStore(idleHome, files, { ...plan, dueSuspensions: 0, dueSchedules: 0 });
    const dueTemplate = join(root, "due-template");
    const dueBuild = await buildDueWorkStore(dueTemplate, files, plan);
    progress(
      `due work: stores built in ${idleBuild.toFixed(1)} s and ${dueBuild.toFixed(1)} s (${plan.dueSuspensions} suspensions and ${plan.dueSchedules} schedules due in the second)`,
    );
    Bun.spawnSync(["sync"]);
    const loadAtStart = loadavg();

    // 1. The idle pass: first, then steady.
    const idle = await measureIdlePasses(idleHome, plan);
    progress(
      `due work, idle pass: first ${idle.first.totalMs} ms, steady median ${idle.steady.total.medianMs} ms (suspensions ${idle.steady.suspensions.medianMs}, of it listing them ${idle.listing.medianMs}; schedules ${idle.steady.schedules.medianMs})`,
    );

    // 3. `uwf tick` with nothing due, against the floor: a process of its own, its caches cold whatever ran here.
    const tick = await measureTick(root, idleHome, options);
    progress(
      `due work, uwf tick with nothing due: median ${tick.summary.medianMs} ms (floor ${tick.floor.medianMs} ms, ${tick.floorMultiple}×; on an empty store ${tick.emptyStore.medianMs} ms)`,
    );

    // 2. The due pass, each on a fresh copy of the due store.
    const due = await measureDuePasses(root, dueTemplate, plan);
    progress(
      `due work, ${plan.dueSuspensions} suspensions and ${plan.dueSchedules} schedules due: median ${due.total.medianMs} ms (${due.perSuspensionMs} ms a suspension, ${due.perScheduleMs} ms a schedule)`,
    );
    return {
      suspended: plan.suspended,
      timed,
      schedules: plan.schedules,
      buildSeconds: { idle: round(idleBuild, 1), due: round(dueBuild, 1) },
      idle: { ...idle, targetMs: IDLE_PASS_TARGET_MS },
      due,
      tick,
      loadAverage: { start: loadAtStart.map((value) => round(value)), end: loadavg().map((value) => round(value)) },
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The gate workflow and its two roles' scenarios, written in `directory`. */
export function writeDueWorkFiles(directory: string): DueWorkFiles {
  const files: DueWorkFiles = {
    workflow: join(directory, "bench-gate.yaml"),
    approver: join(directory, "approver.scenario.json"),
    asker: join(directory, "asker.scenario.json"),
  };
  writeFileSync(files.workflow, GATE_WORKFLOW);
  writeFileSync(files.approver, scenarioOf("approver"));
  writeFileSync(files.asker, scenarioOf("asker"));
  return files;
}

/**
 * A home whose store holds `shape.suspended` suspended threads of the gate workflow (the first half of the
 * `approver`, whose wait is 24h; `dueSuspensions` of those suspended 25 hours ago) and `shape.schedules`
 * schedules of it (`dueSchedules` of them due an hour ago, the rest due in twelve hours). Returns seconds.
 */
export async function buildDueWorkStore(home: string, files: DueWorkFiles, shape: DueWorkStoreShape): Promise<number> {
  const began = performance.now();
  mkdirSync(join(home, "work"), { recursive: true });
  const store = await openFileStore(home);
  const config = defaultConfig();
  const now = () => new Date();
  const newId = () => ulidAt(Date.now());
  try {
    const { workflow } = await registerWorkflowFile({ store, file: files.workflow, now });
    const timed = Math.floor(shape.suspended / 2);
    const start = (gate: "approval" | "question", count: number) =>
      startThreads({
        store,
        config,
        workflowReference: workflow.name,
        starts: Array.from({ length: count }, (_, index) => ({ prompt: `${gate} ${index + 1}`, inputs: { gate } })),
        cwd: join(home, "work"),
        home,
        now,
        newId,
      });
    const approvals = await start("approval", timed);
    const questions = await start("question", shape.suspended - timed);
    const suspendedAgo = () => new Date(Date.now() - SUSPENDED_AGO_MS);
    const jobs = [
      ...approvals.map((record, index) => ({
        id: record.id,
        agent: files.approver,
        now: index < shape.dueSuspensions ? suspendedAgo : now,
      })),
      ...questions.map((record) => ({ id: record.id, agent: files.asker, now })),
    ];
    const lane = async () => {
      for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) {
        const outcome = await stepThread(scriptedStepOptions(store, config, home, job.id, job.agent, job.now));
        if (outcome.record.status !== "suspended") throw new Error(`thread ${job.id} is ${outcome.record.status}`);
      }
    };
    await Promise.all(Array.from({ length: BUILD_LANES }, lane));

    // Daily schedules: due ones made two hours ago, firing at the time an hour ago (their only due fire time);
    // the others made now, firing in twelve hours.
    const clock = Date.now();
    for (let index = 0; index < shape.schedules; index++) {
      const due = index < shape.dueSchedules;
      const made = new Date(due ? clock - 2 * HOUR_MS : clock);
      const fires = new Date(due ? clock - HOUR_MS : clock + 12 * HOUR_MS);
      const schedule = buildSchedule(
        {
          name: `bench-${due ? "due" : "daily"}-${index + 1}`,
          workflow: workflow.name,
          cron: `${fires.getUTCMinutes()} ${fires.getUTCHours()} * * *`,
          tz: "UTC",
          prompt: `Scheduled ${index + 1}.`,
          inputs: { gate: "question" },
          source: "command",
        },
        made,
        COMMAND_FIELD_NAMES,
      );
      await store.refs.createSchedule(schedule);
    }
    const { threads } = await store.refs.listThreads({ status: "suspended" });
    if (threads.length !== shape.suspended)
      throw new Error(`${threads.length} suspended threads, not ${shape.suspended}`);
  } finally {
    await store.close();
  }
  return (performance.now() - began) / 1000;
}

interface PassResult {
  suspensionsMs: number;
  schedulesMs: number;
  expired: number;
  fired: number;
}

/**
 * One round of a worker's due work, as run-worker.ts runs it: expireDueSuspensions (the worker's settle
 * options, its stop signal), then fireDueSchedules with the threads started queued.
 */
export async function duePass(store: Store, home: string, config: Config): Promise<PassResult> {
  const now = () => new Date();
  const signal = new AbortController().signal;
  let began = Bun.nanoseconds();
  const { expired } = await expireDueSuspensions({
    store,
    home,
    host: "bench",
    now,
    onBranchesStarted: () => {},
    onBranchesJoined: () => {},
    signal,
  });
  const suspensionsMs = (Bun.nanoseconds() - began) / 1e6;
  began = Bun.nanoseconds();
  const fires = await fireDueSchedules({
    store,
    config,
    home,
    now,
    cwd: join(home, "work"),
    newId: () => ulidAt(Date.now()),
    queued: true,
  });
  const schedulesMs = (Bun.nanoseconds() - began) / 1e6;
  return { suspensionsMs, schedulesMs, expired: expired.length, fired: fires.filter((fire) => fire.thread).length };
}

function passTimes(passes: readonly PassResult[]): DuePassTimes {
  return {
    suspensions: summarize(passes.map((pass) => pass.suspensionsMs)),
    schedules: summarize(passes.map((pass) => pass.schedulesMs)),
    total: summarize(passes.map((pass) => pass.suspensionsMs + pass.schedulesMs)),
  };
}

async function measureIdlePasses(
  home: string,
  plan: DueWorkPlan,
): Promise<Omit<DueWorkBenchResult["idle"], "targetMs">> {
  const store = await openFileStore(home);
  const config = defaultConfig();
  try {
    const passes: PassResult[] = [];
    const listing: number[] = [];
    for (let pass = 0; pass <= plan.passes; pass++) {
      const result = await duePass(store, home, config);
      if (result.expired !== 0 || result.fired !== 0) throw new Error("the idle store had due work");
      passes.push(result);
      if (pass === 0) continue;
      const began = Bun.nanoseconds();
      for (let offset = 0; ; offset += LISTING_PAGE) {
        const { threads } = await store.refs.listThreads({ status: "suspended", limit: LISTING_PAGE, offset });
        if (threads.length < LISTING_PAGE) break;
      }
      listing.push((Bun.nanoseconds() - began) / 1e6);
    }
    const [first, ...later] = passes as [PassResult, ...PassResult[]];
    return {
      first: {
        suspensionsMs: round(first.suspensionsMs),
        schedulesMs: round(first.schedulesMs),
        totalMs: round(first.suspensionsMs + first.schedulesMs),
      },
      steady: passTimes(later),
      listing: summarize(listing),
    };
  } finally {
    await store.close();
  }
}

async function measureDuePasses(root: string, template: string, plan: DueWorkPlan): Promise<DueWorkBenchResult["due"]> {
  const config = defaultConfig();
  const passes: PassResult[] = [];
  for (let run = 0; run <= plan.dueRuns; run++) {
    const home = join(root, `due-home-${run}`);
    cpSync(template, home, { recursive: true });
    Bun.spawnSync(["sync"]);
    const store = await openFileStore(home);
    try {
      const result = await duePass(store, home, config);
      if (result.expired !== plan.dueSuspensions || result.fired !== plan.dueSchedules) {
        throw new Error(
          `the due pass timed out ${result.expired} suspensions and fired ${result.fired} schedules, not ${plan.dueSuspensions} and ${plan.dueSchedules}`,
        );
      }
      const { threads: active } = await store.refs.listThreads({ status: "active" });
      if (active.filter((thread) => thread.next === "chaser").length !== plan.dueSuspensions)
        throw new Error("the timed-out threads were not routed to the chaser");
      if (
        active.filter((thread) => thread.scheduledBy !== undefined && thread.queued === true).length !==
        plan.dueSchedules
      )
        throw new Error("the schedules' threads were not created queued");
      // The first run is a warm-up: the process's caches then know the store's workflow and heads, as a
      // worker's do after its first round.
      if (run > 0) passes.push(result);
    } finally {
      await store.close();
      rmSync(home, { recursive: true, force: true });
    }
  }
  const times = passTimes(passes);
  return {
    ...times,
    dueSuspensions: plan.dueSuspensions,
    dueSchedules: plan.dueSchedules,
    perSuspensionMs: round(times.suspensions.medianMs / plan.dueSuspensions, 3),
    perScheduleMs: round(times.schedules.medianMs / plan.dueSchedules, 3),
    perItemMs: round(times.total.medianMs / (plan.dueSuspensions + plan.dueSchedules), 3),
  };
}

async function measureTick(
  root: string,
  home: string,
  options: AloneOptions<DueWorkPlan>,
): Promise<DueWorkBenchResult["tick"]> {
  const { plan } = options;
  // An empty store beside it, for what a tick costs whatever the store holds.
  const emptyHome = join(root, "empty-home");
  mkdirSync(join(emptyHome, "work"), { recursive: true });
  await (await openFileStore(emptyHome)).close();
  // Once each, untimed: nothing is due, so the timed runs change nothing.
  for (const checkedHome of [home, emptyHome]) {
    const check = Bun.spawnSync([options.binary, "tick", "--json"], {
      cwd: join(checkedHome, "work"),
      env: options.environment(checkedHome),
      stdout: "pipe",
      stderr: "pipe",
    });
    const checked = JSON.parse(check.stdout.toString()) as { fired: unknown[]; expired: unknown[]; ran: unknown[] };
    if (check.exitCode !== 0 || checked.fired.length + checked.expired.length + checked.ran.length !== 0)
      throw new Error(`uwf tick in ${checkedHome}: exit ${check.exitCode}, ${check.stdout}${check.stderr}`);
  }
  const process = (command: string[], at = home): MeasureProcessOptions => ({
    command,
    cwd: join(at, "work"),
    env: options.environment(at),
    runs: plan.tickRuns,
    warmup: plan.warmup,
  });
  const [floor, tick, empty] = (await measureInterleaved([
    process([globalThis.process.execPath, "-e", "0"]),
    process([options.binary, "tick"]),
    process([options.binary, "tick"], emptyHome),
  ])) as [Summary, Summary, Summary];
  return {
    summary: tick,
    emptyStore: empty,
    floor,
    floorMultiple: round(tick.medianMs / floor.medianMs, 2),
  };
}

export function checkDueWorkTargets(result: DueWorkBenchResult): { target: string; measured: string; met: boolean }[] {
  const { idle } = result;
  return [
    {
      target: `a worker's idle round of due work (expireDueSuspensions + fireDueSchedules, in-process) over ${result.suspended.toLocaleString("en-US")} suspended threads and ${result.schedules} schedules, none due: a steady pass under ${idle.targetMs} ms`,
      measured: `${idle.steady.total.medianMs} ms median (suspensions ${idle.steady.suspensions.medianMs}, schedules ${idle.steady.schedules.medianMs}; first pass ${idle.first.totalMs} ms)`,
      met: idle.steady.total.medianMs < idle.targetMs,
    },
  ];
}

/** The sizes. */
export const FULL_DUE_WORK_PLAN: DueWorkPlan = {
  suspended: 1000,
  schedules: 100,
  dueSuspensions: 100,
  dueSchedules: 20,
  passes: 30,
  dueRuns: 5,
  tickRuns: 15,
  warmup: 2,
};

/** CI's smoke run: the same shapes, a tenth of the size, each measured a few times. */
export const SMOKE_DUE_WORK_PLAN: DueWorkPlan = {
  suspended: 100,
  schedules: 10,
  dueSuspensions: 10,
  dueSchedules: 2,
  passes: 5,
  dueRuns: 1,
  tickRuns: 3,
  warmup: 1,
};

if (import.meta.main) {
  await runBenchmarkAlone({
    name: "uwf-due-work-bench-",
    plans: { full: FULL_DUE_WORK_PLAN, smoke: SMOKE_DUE_WORK_PLAN },
    measure: measureDueWork,
    report: (result) => targetLines(checkDueWorkTargets(result)),
  });
}
