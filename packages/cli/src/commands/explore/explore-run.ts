import { resolve } from "node:path";
import { type ExploreThreadOutcome, exploreThread, readExplorationTarget, resolveExploreReport } from "@uwf/eval";
import type { ExploreResult } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import { EXIT_INTERRUPTED } from "../../exit-codes.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";
import { evaluateOptionsOf } from "../eval/eval-output.ts";
import { MAX_FORKS_PER_COMMAND } from "../thread/forks/fork.ts";
import { limitsFromFlags } from "../thread/start/limits-from-flags.ts";
import { exploreOutcome } from "./explore-output.ts";
import { parseStepList } from "./parse-step-list.ts";

export interface ExploreRunCommandOptions {
  thread: string;
  /** `--steps 2..7,9`: the steps to resample (default all). */
  steps?: string;
  /** `--samples N`: re-runs per step (default 5). */
  samples?: number;
  assert?: string[];
  suite?: string;
  agent?: string;
  timeout?: number;
  parallel?: number;
  /** `--max-cost USD`: the whole exploration's spend limit. */
  maxCost?: number;
  /** `--max-forks N`: the most re-runs one exploration makes (default MAX_FORKS_PER_COMMAND, as `fork`). */
  maxForks?: number;
  /** Each fork's own budget. */
  maxSteps?: number;
  maxTokens?: number;
  forkMaxCost?: number;
  /** `--reuse REPORT`: score (and finish) the forks of an earlier exploration instead of making new ones. */
  reuse?: string;
  minPassRate?: number;
  allowErrors?: boolean;
  name?: string;
  html?: string;
}

/** Re-runs per step unless `--samples` says. */
export const DEFAULT_EXPLORE_SAMPLES = 5;

/**
 * `uwf explore THREAD`: resamples the thread from each chosen step, scores every re-run, stores the
 * report and prints it. The cost (runs = steps × samples) is said on stderr before anything runs and
 * capped like `fork --count` (`--max-forks` raises it). Ctrl-C stops it, stores what finished and exits
 * 130; errored re-runs exit 1, a `--min-pass-rate` gate that does not hold exits 3.
 */
export async function exploreRunCommand(
  options: ExploreRunCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<ExploreResult>> {
  const samples = options.samples ?? DEFAULT_EXPLORE_SAMPLES;
  const wanted = options.steps === undefined ? null : parseStepList(options.steps);
  const evaluation = await evaluateOptionsOf(
    { assert: options.assert, agent: options.agent, timeout: options.timeout, name: options.name },
    context,
  );
  const target = await readExplorationTarget(evaluation.store, options.thread);
  const count = target.points.length;
  const steps = wanted ?? target.points.map((point) => point.step);
  const outside = steps.find((step) => step > count);
  if (outside !== undefined) {
    throw new UsageError(
      `--steps ${options.steps}: thread ${target.record.id} has ${count} step${count === 1 ? "" : "s"}, no step ${outside}`,
      {
        steps: options.steps,
        count,
      },
    );
  }
  const runs = steps.length * samples;
  const maxForks = options.maxForks ?? MAX_FORKS_PER_COMMAND;
  if (runs > maxForks && options.reuse === undefined) {
    throw new UsageError(
      `${steps.length} steps × ${samples} samples = ${runs} runs, more than the ${maxForks} one command makes; give --max-forks ${runs} to run them`,
      { runs, maxForks },
    );
  }
  const reuse = options.reuse === undefined ? undefined : await resolveExploreReport(evaluation.store, options.reuse);
  if (reuse !== undefined && reuse.node.thread !== target.record.id) {
    throw new UsageError(
      `--reuse ${options.reuse}: that exploration is of thread ${reuse.node.thread}, not ${target.record.id}`,
    );
  }
  context.note(
    `exploring thread ${target.record.id}: ${steps.length} step${steps.length === 1 ? "" : "s"} × ${samples} sample${samples === 1 ? "" : "s"} = ${runs} runs${options.maxCost === undefined ? "" : `, at most $${options.maxCost}`}${reuse === undefined ? "" : ` (reusing the forks of ${reuse.entry.id})`}`,
  );
  const counts = { running: 0, queued: runs, done: 0, failed: 0 };
  const startedAt = Date.now();
  const outcome: ExploreThreadOutcome = await exploreThread({
    ...evaluation,
    target,
    steps,
    samples,
    ...(options.suite === undefined ? {} : { suite: resolve(context.cwd, options.suite) }),
    parallel: options.parallel,
    maxCostUsd: options.maxCost,
    limits: limitsFromFlags({ maxSteps: options.maxSteps, maxTokens: options.maxTokens, maxCost: options.forkMaxCost }),
    ...(reuse === undefined ? {} : { reuse }),
    gate: options.minPassRate === undefined ? null : { minPassRate: options.minPassRate },
    onRunFinished: (run) => {
      counts.queued = Math.max(0, counts.queued - 1);
      if (run.error === null) counts.done++;
      else counts.failed++;
      context.progress({ batch: { ...counts }, startedAt });
    },
  });
  context.progress(null);
  const shown = exploreOutcome(outcome.stored, options, context, {
    spentUsd: outcome.spentUsd,
    stoppedBy: outcome.stoppedBy,
  });
  if (outcome.stoppedBy === "interrupted") {
    context.note(`interrupted: the re-runs that finished are stored in report ${outcome.stored.entry.id}`);
    return { ...shown, error: undefined, exitCode: EXIT_INTERRUPTED };
  }
  return shown;
}
