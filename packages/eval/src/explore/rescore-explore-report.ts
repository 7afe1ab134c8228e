import { resolveThread } from "@uwf/engine";
import type { EvalSample, ExploreGate, ExploreReportNode } from "@uwf/protocol";
import { parseAssertionArguments } from "../assertions/parse-assertion.ts";
import { NothingToEvaluateError } from "../errors/nothing-to-evaluate-error.ts";
import type { EvaluateOptions } from "../evaluate/evaluate-options.ts";
import { asScored } from "../evaluate/rescore-eval-report.ts";
import { resolveAssertionPaths } from "../evaluate/resolve-assertion-paths.ts";
import { scoreStoredThreads } from "../evaluate/score-stored-threads.ts";
import { saveEvalReport } from "../report/save-eval-report.ts";
import type { StoredExploreReport } from "./explore-thread.ts";

/**
 * Scores an exploration again without re-running anything but judges: the thread and every re-run, each
 * at the head, status and outcome the report kept, with the report's assertions and the new ones (a
 * new one of the same name replaces the old), or only the new ones with `replace`. The new report
 * names the one it rescored; the forks stay those of the first exploration.
 */
export async function rescoreExploreReport(
  previous: StoredExploreReport,
  options: Omit<EvaluateOptions, "gate"> & { replace: boolean; gate: ExploreGate | null },
): Promise<StoredExploreReport> {
  const added = resolveAssertionPaths(parseAssertionArguments(options.assertions), options.cwd);
  if (added.length === 0) throw new NothingToEvaluateError("nothing to rescore with: give one or more --assert");
  const kept = options.replace
    ? []
    : previous.node.assertions.filter((assertion) => !added.some((other) => other.name === assertion.name));
  const assertions = [...kept, ...added];
  const old = [previous.node.original, ...previous.node.steps.flatMap((step) => step.samples)];
  const targets = await Promise.all(
    old.map(async (sample) => ({
      record: asScored(await resolveThread(options.store.refs, sample.thread), sample),
      eval: { case: sample.case, variant: sample.variant, repeat: sample.repeat },
    })),
  );
  // A re-run the exploration left unfinished stays errored for the same reason.
  const sampleErrors = new Map<string, string>();
  for (const sample of old) if (sample.error !== null) sampleErrors.set(sample.thread, sample.error);
  const samples = await scoreStoredThreads(options.store, targets, assertions, options, sampleErrors);
  const [original, ...reruns] = samples as [EvalSample, ...EvalSample[]];
  let next = 0;
  const node: ExploreReportNode = {
    ...previous.node,
    name: options.name ?? previous.node.name,
    createdAt: options.now().toISOString(),
    assertions,
    original,
    steps: previous.node.steps.map((step) => ({
      ...step,
      samples: step.samples.map(() => reruns[next++] as EvalSample),
    })),
    gate: options.gate ?? previous.node.gate,
    rescoredFrom: previous.entry.address,
  };
  return { entry: await saveEvalReport(options.store, node, options.newId), node };
}
