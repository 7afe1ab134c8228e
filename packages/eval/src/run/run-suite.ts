import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addressOfNode, forEachConcurrently, type Store } from "@uwf/cas";
import {
  forkThreads,
  type ResolvedWorkflow,
  resolveNodeOrThread,
  resolveWorkflow,
  runThreadToEnd,
  spentWithBranches,
  startThreads,
} from "@uwf/engine";
import { type Address, type Config, messageOf, type ThreadRecord, type ThreadStartNode } from "@uwf/protocol";
import { validateStartInputs } from "@uwf/workflow";
import { InvalidSuiteError } from "../errors/invalid-suite-error.ts";
import { SuiteNotQueueableError } from "../errors/suite-not-queueable-error.ts";
import type { Suite, SuiteCase, SuiteVariant } from "../suite/suite.ts";
import { checkSuiteAgents, checkSuiteRuns, MAX_SUITE_RUNS, problemAt } from "./check-suite-runs.ts";
import { definitionHash, fileHash, folderName, generationOf, runFolder } from "./run-folders.ts";
import { runStopError } from "./run-stop-error.ts";
import { variantConfig } from "./variant-config.ts";

/** Why a run has no finished thread although it started, or could not start. */
export const SUITE_BUDGET_REACHED = "suite budget reached";
export const SUITE_INTERRUPTED = "interrupted before it finished";

export interface RunSuiteOptions {
  store: Store;
  /** The home's config: each variant's `config:` and `model:` are laid over it for its runs. */
  config: Config;
  home: string;
  /**
   * Where the runs' working directories go: `<runsDir>/<suite>/<hash>/<case>/<variant>/<generation>/<repeat>`
   * (see docs/suites.md). The same folder gives the same start node, which is how a run is found again.
   */
  runsDir: string;
  /** The most runs this call may start (`--max-runs`, default MAX_SUITE_RUNS); more is refused before anything is planned. */
  maxRuns?: number;
  /** At most this many runs step at once in this process (default 1). */
  parallel?: number;
  /** Start the threads queued for workers and wait for them instead of stepping them here. */
  queue?: boolean;
  /** Start new threads (a new generation of run folders) instead of reusing those of an earlier run. */
  fresh?: boolean;
  /** The caller's limit on the whole suite's spend (`--max-cost`); the smaller of it and the file's applies. */
  maxCostUsd?: number;
  /** Seconds before an agent is stopped (`--timeout`). */
  timeoutSeconds?: number;
  /** Ctrl-C: no new run or step starts, running steps are interrupted, and what finished is returned. */
  signal: AbortSignal;
  host: string;
  now(): Date;
  newId(): string;
  /** With `queue`: how often the threads' records are read (default 500 ms). */
  pollMs?: number;
  /** A run has its thread: a new one, or one an earlier run of the suite left (`reused`). */
  onRunStarted?(run: SuiteRunStarted): void;
  /** A run is done: finished, failed, or stopped with an error. */
  onRunFinished?(run: SuiteRun): void;
  /** What agents write on stderr, as `uwf step -v` shows it. */
  onStderr?(chunk: string): void;
  onWarning?(message: string): void;
}

/** Which run of the suite: its case (null with `from:`), variant (null when unnamed) and repeat (0-based). */
export interface SuiteRunKey {
  case: string | null;
  variant: string | null;
  repeat: number;
}

export interface SuiteRunStarted extends SuiteRunKey {
  thread: string;
  reused: boolean;
}

/** One run of the suite, as runSuite returns it. */
export interface SuiteRun extends SuiteRunKey {
  /** Its thread; null when it could not start. */
  thread: string | null;
  /** The thread as the run left it; null when it could not start. */
  record: ThreadRecord | null;
  /** The thread was found from an earlier run of the suite (it may have been stepped on, if it was active). */
  reused: boolean;
  /**
   * Why the run is not a finished sample: it could not start (a bad workflow, a missing fixture…), the
   * suite's budget was reached (SUITE_BUDGET_REACHED) or it was interrupted (SUITE_INTERRUPTED) before
   * its thread finished, or a step failed without failing the thread. Null for a thread that ended,
   * failed, was cancelled or suspended: those are samples.
   */
  error: string | null;
}

export interface SuiteRunResult {
  /** One per run: case × variant × repeat in that order, or per variant its forks with `from:`. */
  runs: SuiteRun[];
  /** What the runs spent in this call, in US dollars (reused finished threads spend nothing). */
  spentUsd: number;
  /** The limit that applied: the smaller of the file's `max_cost_usd` and the caller's; null without. */
  maxCostUsd: number | null;
  /** Why runs were left unfinished: the suite's budget, Ctrl-C; null when none was. */
  stoppedBy: "max-cost" | "interrupted" | null;
}

/** What one run is to do, before it has a thread. */
interface PlannedRun {
  key: SuiteRunKey;
  variant: PreparedVariant;
  /** Cases: the case; forks: null. */
  case: SuiteCase | null;
  /** Its working directory (cases), or the folder that keeps its fork's id (forks). */
  folder: string;
}

interface PreparedVariant {
  variant: SuiteVariant;
  /** Its config, or why it has none (the merged config is invalid). */
  config: Config | Error;
  /** Cases: the workflow, resolved once, or why it could not be. */
  workflow: Promise<ResolvedWorkflow> | null;
}

/**
 * Runs a suite's threads: case × variant × repeat new threads (`cases:`, all started first, a batch per
 * variant), or `count` forks per variant of one node (`from:`), each stepped to its end with its
 * variant's agent and config, at most `parallel` at a time; or, with `queue`, started queued for
 * workers and waited for. A thread that
 * fails is a finished sample; a run that cannot start has an `error`. A run an earlier call finished
 * is reused unless `fresh`: each run's working directory is deterministic, so its start node is too,
 * and the store finds its thread by that node (forks keep their thread's id in their run folder).
 * The suite's spend limit (the smaller of the file's and `maxCostUsd`) stops new steps once reached
 * (the threads left active are stepped on by a later call), as does `signal`. Throws SuiteNotQueueableError for `queue` with variants that set an
 * agent, a model or config.
 */
export async function runSuite(suite: Suite, options: RunSuiteOptions): Promise<SuiteRunResult> {
  if (options.queue === true) {
    const refused = suite.variants.filter(
      (variant) => variant.agent !== null || variant.model !== null || variant.config !== null,
    );
    if (refused.length > 0)
      throw new SuiteNotQueueableError(
        suite.file,
        refused.map((variant) => variant.name ?? "(unnamed)"),
      );
  }
  // Mistakes of the suite are refused before anything is planned or started: too many runs, an agent
  // alias no config defines, a `from:` that names no thread or node.
  checkSuiteRuns(suite, options.maxRuns ?? MAX_SUITE_RUNS);
  checkSuiteAgents(suite, options.config);
  const point = suite.from === null ? null : await resolveFrom(suite, options.store);
  const limits = [suite.maxCostUsd, options.maxCostUsd ?? null].filter((value) => value !== null);
  const maxCostUsd = limits.length === 0 ? null : Math.min(...limits);
  const runner = new SuiteRunner(suite, options, maxCostUsd, point);
  return runner.run();
}

class SuiteRunner {
  readonly suite: Suite;
  readonly options: RunSuiteOptions;
  readonly maxCostUsd: number | null;
  /** What each run's thread spent since this call took it up, by thread id. */
  readonly spent = new Map<string, number>();
  stoppedBy: SuiteRunResult["stoppedBy"] = null;
  /** With `from:`, the node its runs fork and the thread it belongs to. */
  readonly point: ForkPoint | null;

  constructor(suite: Suite, options: RunSuiteOptions, maxCostUsd: number | null, point: ForkPoint | null) {
    this.suite = suite;
    this.options = options;
    this.maxCostUsd = maxCostUsd;
    this.point = point;
  }

  async run(): Promise<SuiteRunResult> {
    const planned = await this.plan();
    // Ctrl-C or SIGTERM while planning: nothing was started, nothing is left to report.
    if (planned === null) return { runs: [], spentUsd: 0, maxCostUsd: this.maxCostUsd, stoppedBy: "interrupted" };
    const runs: SuiteRun[] =
      this.suite.from === null ? await this.runCases(planned) : await this.runForks(planned, this.point as ForkPoint);
    const spentUsd = this.spentUsd();
    return { runs, spentUsd, maxCostUsd: this.maxCostUsd, stoppedBy: this.stoppedBy };
  }

  /**
   * The runs in order, each with its folder; null when Ctrl-C or SIGTERM came while planning (it yields
   * to the event loop every PLAN_YIELD_EVERY runs, so the signal is seen).
   */
  async plan(): Promise<PlannedRun[] | null> {
    const { suite, options } = this;
    const base = runFolder(options.runsDir, folderName(suite.name));
    const planned: PlannedRun[] = [];
    for (const variant of suite.variants) {
      const prepared = this.prepareVariant(variant);
      const variantFolder = folderName(variant.name ?? "default");
      const definition = {
        variant,
        scenario: scenarioHash(variant.agent),
        budget: suite.budget,
      };
      if (suite.from !== null) {
        const pair = runFolder(base, definitionHash({ ...definition, from: suite.from }), "from", variantFolder);
        const generation = generationOf(pair, options.fresh === true);
        for (let repeat = 0; repeat < suite.count; repeat++) {
          const key = { case: null, variant: variant.name, repeat };
          planned.push({ key, variant: prepared, case: null, folder: runFolder(pair, generation, repeat) });
          if (planned.length % PLAN_YIELD_EVERY === 0 && (await this.interruptedWhilePlanning())) return null;
        }
        continue;
      }
      for (const entry of suite.cases) {
        const workflow = variant.workflow ?? suite.workflow;
        // What the case's threads start with; not its assertions, which score them and may change freely.
        const started = { name: entry.name, prompt: entry.prompt, inputs: entry.inputs, fixture: entry.fixture };
        const hash = definitionHash({ ...definition, workflow, case: started });
        const pair = runFolder(base, hash, folderName(entry.name), variantFolder);
        const generation = generationOf(pair, options.fresh === true);
        for (let repeat = 0; repeat < suite.repeat; repeat++) {
          const key = { case: entry.name, variant: variant.name, repeat };
          planned.push({ key, variant: prepared, case: entry, folder: runFolder(pair, generation, repeat) });
          if (planned.length % PLAN_YIELD_EVERY === 0 && (await this.interruptedWhilePlanning())) return null;
        }
      }
    }
    // Cases first, then variants, then repeats: the order a report lists them in.
    return this.suite.from === null ? sortByCase(planned, this.suite) : planned;
  }

  /** Lets a signal's handler run, then says whether it stopped the suite. */
  async interruptedWhilePlanning(): Promise<boolean> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!this.options.signal.aborted) return false;
    this.stoppedBy = "interrupted";
    return true;
  }

  prepareVariant(variant: SuiteVariant): PreparedVariant {
    const { suite, options } = this;
    let config: Config | Error;
    try {
      config = variantConfig(options.config, variant);
    } catch (error) {
      config = new Error(`variant ${variant.name ?? "(unnamed)"}: its config is invalid: ${messageOf(error)}`);
    }
    const reference = variant.workflow ?? suite.workflow;
    const workflow =
      suite.from !== null || reference === null
        ? null
        : resolveWorkflow({ store: options.store, reference, cwd: suite.dir, home: options.home, now: options.now });
    // Awaited by each run; a rejection is each run's error, not an unhandled one.
    workflow?.catch(() => {});
    return { variant, config, workflow };
  }

  // Cases.

  async runCases(planned: PlannedRun[]): Promise<SuiteRun[]> {
    const queued = this.options.queue === true;
    const runs = new Map<PlannedRun, SuiteRun>();
    // First every run's thread from an earlier call, or what its new thread starts with.
    const toStart = new Map<PreparedVariant, Array<{ run: PlannedRun; start: ThreadStartNode }>>();
    for (const run of planned) {
      const found = await this.lookUpCase(run, queued);
      if ("start" in found) {
        const list = toStart.get(run.variant) ?? [];
        list.push({ run, start: found.start });
        toStart.set(run.variant, list);
      } else runs.set(run, found);
    }
    // Then the new threads, all at once per variant (no agent runs yet): their start nodes in one batch.
    for (const [variant, list] of toStart) {
      for (const [run, result] of await this.startCases(variant, list, queued)) runs.set(run, result);
    }
    return this.finish(planned, runs, queued);
  }

  /**
   * Takes every run with a thread to its end: waits for the workers (`queued`), or steps them here, at
   * most `parallel` at once. The runs come back in the order planned.
   */
  async finish(planned: readonly PlannedRun[], runs: Map<PlannedRun, SuiteRun>, queued: boolean): Promise<SuiteRun[]> {
    if (queued) {
      await this.waitForQueued([...runs.values()]);
      for (const run of runs.values()) this.options.onRunFinished?.(run);
      return planned.map((run) => runs.get(run) as SuiteRun);
    }
    await forEachConcurrently(planned, Math.max(1, this.options.parallel ?? 1), async (run) => {
      let result = runs.get(run) as SuiteRun;
      if (result.record !== null && result.error === null) result = await this.drive(run, result);
      runs.set(run, result);
      this.options.onRunFinished?.(result);
    });
    return planned.map((run) => runs.get(run) as SuiteRun);
  }

  /** The run's thread from an earlier call (reused), the start node of its new thread, or why it cannot start. */
  async lookUpCase(run: PlannedRun, queued: boolean): Promise<SuiteRun | { start: ThreadStartNode }> {
    const entry = run.case as SuiteCase;
    try {
      if (run.variant.config instanceof Error) return this.failed(run, run.variant.config.message);
      if (run.variant.workflow === null) return this.failed(run, "no workflow");
      const workflow = await run.variant.workflow;
      const start: ThreadStartNode = {
        type: "thread-start/1",
        workflow: workflow.address,
        prompt: entry.prompt,
        cwd: run.folder,
      };
      const inputs = validateStartInputs(workflow.workflow, entry.inputs);
      if (Object.keys(inputs).length > 0) start.inputs = inputs;
      // The address startThreads will store the node under: looked up without writing it.
      const found = await this.findStarted(addressOfNode(start));
      return found === null ? { start } : await this.taken(run, found, true, queued);
    } catch (error) {
      return this.failed(run, messageOf(error));
    }
  }

  /** Copies each run's fixture into its emptied folder and starts the variant's new threads together. */
  async startCases(
    variant: PreparedVariant,
    list: ReadonlyArray<{ run: PlannedRun; start: ThreadStartNode }>,
    queued: boolean,
  ): Promise<Map<PlannedRun, SuiteRun>> {
    const results = new Map<PlannedRun, SuiteRun>();
    const stopped = this.stopReason();
    if (stopped !== null) {
      for (const { run } of list) results.set(run, this.failed(run, stopped));
      return results;
    }
    const ready: Array<{ run: PlannedRun; start: ThreadStartNode }> = [];
    for (const item of list) {
      const { folder } = item.run;
      const fixture = (item.run.case as SuiteCase).fixture;
      try {
        rmSync(folder, { recursive: true, force: true });
        mkdirSync(folder, { recursive: true });
        if (fixture !== null) cpSync(fixture, folder, { recursive: true });
        ready.push(item);
      } catch (error) {
        results.set(item.run, this.failed(item.run, `cannot copy the fixture into ${folder}: ${messageOf(error)}`));
      }
    }
    if (ready.length === 0) return results;
    try {
      const records = await startThreads({
        store: this.options.store,
        config: variant.config as Config,
        limits: this.suite.budget,
        workflowReference: (ready[0] as { start: ThreadStartNode }).start.workflow,
        starts: ready.map(({ start }) => ({
          prompt: start.prompt,
          threadCwd: start.cwd,
          ...(start.inputs === undefined ? {} : { inputs: start.inputs }),
        })),
        queued,
        cwd: this.suite.dir,
        home: this.options.home,
        now: this.options.now,
        newId: this.options.newId,
      });
      for (const [index, { run }] of ready.entries()) {
        results.set(run, await this.taken(run, records[index] as ThreadRecord, false, queued));
      }
    } catch (error) {
      for (const { run } of ready) results.set(run, this.failed(run, messageOf(error)));
    }
    return results;
  }

  failed(run: PlannedRun, error: string): SuiteRun {
    return { ...run.key, thread: null, record: null, reused: false, error };
  }

  /** The thread an earlier call started at this start node (the oldest, if several; forks of it are not). */
  async findStarted(start: Address): Promise<ThreadRecord | null> {
    const { threads } = await this.options.store.refs.listThreads({ start });
    const own = threads
      .filter((thread) => thread.forkedFrom === null)
      .sort((left, right) => left.createdAt.localeCompare(right.createdAt));
    return own[0] ?? null;
  }

  /** A run that has its thread: reported started, and queued for workers when it is to be and is not yet. */
  async taken(run: PlannedRun, record: ThreadRecord, reused: boolean, queued: boolean): Promise<SuiteRun> {
    let current = record;
    if (queued && current.status === "active" && current.queued !== true) {
      if (await this.options.store.refs.updateThread(current.id, current.head, { queued: true }))
        current = { ...current, queued: true };
    }
    this.spent.set(current.id, 0);
    this.options.onRunStarted?.({ ...run.key, thread: current.id, reused });
    return { ...run.key, thread: current.id, record: current, reused, error: null };
  }

  /**
   * Runs the run's thread to its end as `uwf run` does (runThreadToEnd: its branches and joins, and the
   * scenario's recorded answers), or until the suite stops; returns the run as it then stands. What the
   * run spent counts its branches' spend, as the parent's budget does.
   */
  async drive(run: PlannedRun, taken: SuiteRun): Promise<SuiteRun> {
    const { options } = this;
    const initial = taken.record as ThreadRecord;
    if (initial.status !== "active" && initial.status !== "waiting") return taken;
    const stopped = this.stopReason();
    if (stopped !== null) return { ...taken, error: stopped };
    const initialCost = await spentWithBranches(options.store, initial).then((spent) => spent.costUsd);
    const noteSpend = async (record: ThreadRecord) => {
      const spent = await spentWithBranches(options.store, record);
      this.spent.set(initial.id, spent.costUsd - initialCost);
    };
    const parent = async () => (await options.store.refs.getThread(initial.id)) ?? initial;
    const done = await runThreadToEnd({
      store: options.store,
      config: run.variant.config as Config,
      home: options.home,
      threadId: initial.id,
      baseDir: this.suite.dir,
      defaultAgent: run.variant.variant.agent ?? undefined,
      timeoutSeconds: options.timeoutSeconds,
      signal: options.signal,
      host: options.host,
      now: options.now,
      shouldStop: () => this.stopReason() !== null,
      onStepFinished: (_step, record) => noteSpend(record),
      onBranchStepFinished: async () => noteSpend(await parent()),
      onProgress: () => {},
      onStderr: options.onStderr ?? (() => {}),
      onWarning: options.onWarning,
    });
    const record = done.record;
    await noteSpend(record);
    const error = runStopError(record, done.error, this.stopReason());
    return error === null ? { ...taken, record } : { ...taken, record, error };
  }

  /** Why no new step or thread may start: Ctrl-C, or the suite's spend at its limit; null when they may. */
  stopReason(): string | null {
    if (this.options.signal.aborted) {
      this.stoppedBy = "interrupted";
      return SUITE_INTERRUPTED;
    }
    if (this.maxCostUsd !== null && this.spentUsd() >= this.maxCostUsd) {
      this.stoppedBy ??= "max-cost";
      return SUITE_BUDGET_REACHED;
    }
    return null;
  }

  spentUsd(): number {
    let total = 0;
    for (const cost of this.spent.values()) total += cost;
    return Math.round(total * 1e6) / 1e6;
  }

  // Forks.

  async runForks(planned: PlannedRun[], point: ForkPoint): Promise<SuiteRun[]> {
    const { store } = this.options;
    const queued = this.options.queue === true;
    const runs = new Map<PlannedRun, SuiteRun>();
    const missing: PlannedRun[] = [];
    for (const run of planned) {
      if (run.variant.config instanceof Error) {
        runs.set(run, { ...run.key, thread: null, record: null, reused: false, error: run.variant.config.message });
        continue;
      }
      const found = await this.findFork(run, point.address);
      if (found === null) missing.push(run);
      else runs.set(run, await this.taken(run, found, true, queued));
    }
    if (missing.length > 0) {
      const stopped = this.stopReason();
      let made: ThreadRecord[] = [];
      let failure: string | null = stopped;
      if (stopped === null) {
        try {
          made = await forkThreads({
            store,
            address: point.address,
            ...(point.parent === undefined ? {} : { parent: point.parent }),
            forks: missing.map(() => null),
            limits: this.suite.budget,
            queued,
            signal: this.options.signal,
            now: this.options.now,
            newId: this.options.newId,
          });
        } catch (error) {
          failure = messageOf(error);
        }
      }
      for (const [index, run] of missing.entries()) {
        const record = made[index];
        if (record === undefined) {
          const error = failure ?? this.stopReason() ?? SUITE_INTERRUPTED;
          runs.set(run, { ...run.key, thread: null, record: null, reused: false, error });
          continue;
        }
        mkdirSync(run.folder, { recursive: true });
        writeFileSync(join(run.folder, "thread"), `${record.id}\n`);
        runs.set(run, await this.taken(run, record, false, queued));
      }
    }
    return this.finish(planned, runs, queued);
  }

  /** The fork an earlier call made for this run: the id its folder keeps, if that thread is still a fork of the node. */
  async findFork(run: PlannedRun, address: Address): Promise<ThreadRecord | null> {
    const file = join(run.folder, "thread");
    if (!existsSync(file)) return null;
    const id = readFileSync(file, "utf8").trim();
    const record = await this.options.store.refs.getThread(id);
    return record !== null && record.forkedFrom?.address === address ? record : null;
  }

  // Queued.

  /**
   * Waits until no run's thread is active (workers step them). Once the suite's budget is reached the
   * threads still active are taken out of the queue, and the wait ends when those no worker holds are
   * all that is left; Ctrl-C ends it at once. Runs whose thread is still active get the reason as error.
   */
  async waitForQueued(runs: SuiteRun[]): Promise<void> {
    const { store, signal } = this.options;
    const pollMs = this.options.pollMs ?? 500;
    const waiting = runs.filter((run) => run.record !== null && run.error === null);
    const initialCost = new Map(waiting.map((run) => [run.thread as string, run.record?.usage.costUsd ?? 0]));
    let unqueued = false;
    for (;;) {
      for (const run of waiting) {
        const record = await store.refs.getThread(run.thread as string);
        if (record === null) continue;
        run.record = record;
        this.spent.set(record.id, record.usage.costUsd - (initialCost.get(record.id) ?? 0));
      }
      const active = waiting.filter((run) => run.record?.status === "active");
      if (active.length === 0) return;
      const stopped = this.stopReason();
      if (stopped === SUITE_INTERRUPTED) {
        for (const run of active) run.error = stopped;
        return;
      }
      if (stopped === SUITE_BUDGET_REACHED) {
        if (!unqueued) {
          for (const run of active) {
            const record = run.record as ThreadRecord;
            await store.refs.updateThread(record.id, record.head, { queued: false });
          }
          unqueued = true;
        } else {
          const held = new Set((await store.refs.listLeases()).map((lease) => lease.threadId));
          if (active.every((run) => !held.has(run.thread as string))) {
            for (const run of active) run.error = stopped;
            return;
          }
        }
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs);
        signal.addEventListener("abort", done, { once: true });
        function done() {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          resolve();
        }
      });
    }
  }
}

/** How many runs are planned between looks at the signal. */
const PLAN_YIELD_EVERY = 10_000;

/** The node a `from:` suite's runs fork: a thread's head (with the thread), or a node. */
interface ForkPoint {
  address: Address;
  parent: ThreadRecord | undefined;
}

/** The suite's `from:`, resolved before anything is planned: one that names no thread or node is the suite's mistake. */
async function resolveFrom(suite: Suite, store: Store): Promise<ForkPoint> {
  const from = suite.from as string;
  try {
    const resolved = await resolveNodeOrThread(store, from);
    return resolved.thread === null
      ? { address: resolved.address, parent: undefined }
      : { address: resolved.thread.head, parent: resolved.thread };
  } catch (error) {
    const message = `from ${from}: ${messageOf(error)}`;
    throw new InvalidSuiteError(suite.file, [problemAt(suite, "from", /^from\s*:/m, message)]);
  }
}

/** The scenario file's content hash for a `scripted:FILE` agent, so a changed scenario makes new runs. */
function scenarioHash(agent: string | null): string | null {
  if (agent === null || !agent.startsWith("scripted:")) return null;
  return fileHash(agent.slice("scripted:".length));
}

function sortByCase(planned: PlannedRun[], suite: Suite): PlannedRun[] {
  const caseIndex = new Map(suite.cases.map((entry, index) => [entry.name, index]));
  const variantIndex = new Map(suite.variants.map((variant, index) => [variant.name, index]));
  return [...planned].sort(
    (left, right) =>
      (caseIndex.get(left.key.case ?? "") ?? 0) - (caseIndex.get(right.key.case ?? "") ?? 0) ||
      (variantIndex.get(left.key.variant) ?? 0) - (variantIndex.get(right.key.variant) ?? 0) ||
      left.key.repeat - right.key.repeat,
  );
}
