import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addressOfNode, forEachConcurrently, type Store } from "@uwf/cas";
import { forkThreads, runThreadToEnd, spentWithBranches, startThreads } from "@uwf/engine";
import { type Address, type Config, messageOf, type ThreadRecord, type ThreadStartNode } from "@uwf/protocol";
import { validateStartInputs } from "@uwf/workflow";
import { SuiteNotQueueableError } from "../errors/suite-not-queueable-error.ts";
import type { Suite, SuiteCase } from "../suite/suite.ts";
import { checkSuiteAgents, checkSuiteRuns, MAX_SUITE_RUNS } from "./check-suite-runs.ts";
import {
  type ForkPoint,
  type PlannedRun,
  type PreparedVariant,
  planSuiteRuns,
  resolveFrom,
} from "./plan-suite-runs.ts";
import { runStopError } from "./run-stop-error.ts";
import {
  SUITE_BUDGET_REACHED,
  SUITE_INTERRUPTED,
  type SuiteRun,
  type SuiteRunResult,
  type SuiteRunStarted,
} from "./suite-run.ts";
import { waitForQueuedRuns } from "./wait-for-queued-runs.ts";

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
    const planned = await planSuiteRuns(this.suite, this.options);
    // Ctrl-C or SIGTERM while planning: nothing was started, nothing is left to report.
    if (planned === null) return { runs: [], spentUsd: 0, maxCostUsd: this.maxCostUsd, stoppedBy: "interrupted" };
    const runs: SuiteRun[] =
      this.suite.from === null ? await this.runCases(planned) : await this.runForks(planned, this.point as ForkPoint);
    const spentUsd = this.spentUsd();
    return { runs, spentUsd, maxCostUsd: this.maxCostUsd, stoppedBy: this.stoppedBy };
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
      await waitForQueuedRuns([...runs.values()], {
        ...this.options,
        spent: this.spent,
        stopReason: () => this.stopReason(),
      });
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
}
