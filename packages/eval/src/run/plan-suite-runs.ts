import type { Store } from "@uwf/cas";
import { type ResolvedWorkflow, resolveNodeOrThread, resolveWorkflow } from "@uwf/engine";
import { type Address, type Config, messageOf, type ThreadRecord } from "@uwf/protocol";
import { InvalidSuiteError } from "../errors/invalid-suite-error.ts";
import type { Suite, SuiteCase, SuiteVariant } from "../suite/suite.ts";
import { problemAt } from "./check-suite-runs.ts";
import { definitionHash, fileHash, folderName, generationOf, runFolder } from "./run-folders.ts";
import type { SuiteRunKey } from "./suite-run.ts";
import { variantConfig } from "./variant-config.ts";

/** What planning takes of runSuite's options. */
export interface PlanSuiteRunsOptions {
  store: Store;
  config: Config;
  home: string;
  runsDir: string;
  fresh?: boolean;
  signal: AbortSignal;
  now(): Date;
}

/** What one run is to do, before it has a thread. */
export interface PlannedRun {
  key: SuiteRunKey;
  variant: PreparedVariant;
  /** Cases: the case; forks: null. */
  case: SuiteCase | null;
  /** Its working directory (cases), or the folder that keeps its fork's id (forks). */
  folder: string;
}

export interface PreparedVariant {
  variant: SuiteVariant;
  /** Its config, or why it has none (the merged config is invalid). */
  config: Config | Error;
  /** Cases: the workflow, resolved once, or why it could not be. */
  workflow: Promise<ResolvedWorkflow> | null;
}

/**
 * The runs in order, each with its folder; null when Ctrl-C or SIGTERM came while planning (it yields
 * to the event loop every PLAN_YIELD_EVERY runs, so the signal is seen).
 */
export async function planSuiteRuns(suite: Suite, options: PlanSuiteRunsOptions): Promise<PlannedRun[] | null> {
  const base = runFolder(options.runsDir, folderName(suite.name));
  const planned: PlannedRun[] = [];
  for (const variant of suite.variants) {
    const prepared = prepareVariant(suite, variant, options);
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
        if (planned.length % PLAN_YIELD_EVERY === 0 && (await interruptedWhilePlanning(options.signal))) return null;
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
        if (planned.length % PLAN_YIELD_EVERY === 0 && (await interruptedWhilePlanning(options.signal))) return null;
      }
    }
  }
  // Cases first, then variants, then repeats: the order a report lists them in.
  return suite.from === null ? sortByCase(planned, suite) : planned;
}

/** Lets a signal's handler run, then says whether it stopped the suite. */
async function interruptedWhilePlanning(signal: AbortSignal): Promise<boolean> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  return signal.aborted;
}

function prepareVariant(suite: Suite, variant: SuiteVariant, options: PlanSuiteRunsOptions): PreparedVariant {
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

/** How many runs are planned between looks at the signal. */
const PLAN_YIELD_EVERY = 10_000;

/** The node a `from:` suite's runs fork: a thread's head (with the thread), or a node. */
export interface ForkPoint {
  address: Address;
  parent: ThreadRecord | undefined;
}

/** The suite's `from:`, resolved before anything is planned: one that names no thread or node is the suite's mistake. */
export async function resolveFrom(suite: Suite, store: Store): Promise<ForkPoint> {
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
