import { resolveThread } from "@uwf/engine";
import type { EvalAssertion, EvalReportNode, EvalSample, ThreadRecord } from "@uwf/protocol";
import { parseAssertionArguments } from "../assertions/parse-assertion.ts";
import { NothingToEvaluateError } from "../errors/nothing-to-evaluate-error.ts";
import type { StoredEvalReport } from "../report/resolve-eval-report.ts";
import { saveEvalReport } from "../report/save-eval-report.ts";
import { assertionsNeedBodies } from "../score/score-threads.ts";
import { loadThreadViews } from "../view/load-thread-view.ts";
import type { EvaluateOptions } from "./evaluate-options.ts";
import { judgeContextOf } from "./judge-context.ts";
import { resolveAssertionPaths } from "./resolve-assertion-paths.ts";
import { allAssertions, type ScoreGroup, scoreGroups } from "./score-groups.ts";

/**
 * Scores a report's samples again, each thread as the report saw it (its head, status and outcome then),
 * with the report's assertions and the new ones (a new one of the same name replaces the old), or only
 * the new ones with `replace`. Each sample keeps the assertions it was scored with (a suite case's own
 * included). Nothing is run but judges; the new report names the one it rescored.
 */
export async function rescoreEvalReport(
  previous: StoredEvalReport,
  options: EvaluateOptions & { replace: boolean },
): Promise<StoredEvalReport> {
  const added = resolveAssertionPaths(parseAssertionArguments(options.assertions), options.cwd);
  if (added.length === 0) throw new NothingToEvaluateError("nothing to rescore with: give one or more --assert");
  const groups = new Map<string, { assertions: EvalAssertion[]; samples: EvalSample[] }>();
  for (const sample of previous.node.samples) {
    const kept = options.replace
      ? []
      : previous.node.assertions.filter(
          (assertion) =>
            sample.scores.some((score) => score.assertion === assertion.name) &&
            !added.some((other) => other.name === assertion.name),
        );
    const assertions = [...kept, ...added];
    const key = assertions.map((assertion) => assertion.name).join("\u0000");
    const group = groups.get(key) ?? { assertions, samples: [] };
    group.samples.push(sample);
    groups.set(key, group);
  }
  const scoring: ScoreGroup[] = [];
  for (const group of groups.values()) {
    const targets = await Promise.all(
      group.samples.map(async (sample) => ({
        record: asScored(await resolveThread(options.store.refs, sample.thread), sample),
        eval: { case: sample.case, variant: sample.variant, repeat: sample.repeat },
      })),
    );
    const views = await loadThreadViews(options.store, targets, {
      bodies: assertionsNeedBodies(group.assertions),
      signal: options.signal,
    });
    scoring.push({ views, assertions: group.assertions });
  }
  const judge = judgeContextOf(options);
  const samples = await scoreGroups(scoring, {
    cwd: options.cwd,
    judge,
    signal: options.signal,
  });
  judge.noteReused();
  const node: EvalReportNode = {
    ...previous.node,
    createdAt: options.now().toISOString(),
    name: options.name ?? previous.node.name,
    assertions: allAssertions(scoring),
    samples,
    gate: options.gate === null ? previous.node.gate : { ...previous.node.gate, ...options.gate },
    rescoredFrom: previous.entry.address,
  };
  return { entry: await saveEvalReport(options.store, node, options.newId), node };
}

/**
 * The thread's record as the report scored it: at the head, status and outcome the sample kept. Its
 * chain then had one step per role of its path (`sample.steps` counts only a fork's own steps).
 */
export function asScored(record: ThreadRecord, sample: EvalSample): ThreadRecord {
  const scored: ThreadRecord = { ...record, head: sample.head, status: sample.status, stepCount: sample.path.length };
  if (sample.outcome === null) delete scored.outcome;
  else scored.outcome = sample.outcome;
  return scored;
}
