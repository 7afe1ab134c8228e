import type { EvalAssertion, EvalSample, EvalThreadView } from "@uwf/protocol";
import type { JudgeContext } from "../score/score-judge.ts";
import { scoreThreads } from "../score/score-threads.ts";

/** Threads to score with the same assertions (a suite's case adds its own to the suite's). */
export interface ScoreGroup {
  views: readonly EvalThreadView[];
  assertions: readonly EvalAssertion[];
  /** Why a thread's sample errs whatever its scores (by thread id). */
  sampleErrors?: ReadonlyMap<string, string>;
}

/** Scores each group with its assertions, and gives the samples back in the groups' order. */
export async function scoreGroups(
  groups: readonly ScoreGroup[],
  options: { cwd: string; judge: JudgeContext; signal: AbortSignal; afterInterrupt?: boolean },
): Promise<EvalSample[]> {
  const samples: EvalSample[] = [];
  for (const group of groups) {
    if (group.views.length === 0) continue;
    samples.push(...(await scoreThreads({ ...group, ...options })));
  }
  return samples;
}

/** The assertions of every group, each once, in first-seen order: what the report lists. */
export function allAssertions(groups: readonly { assertions: readonly EvalAssertion[] }[]): EvalAssertion[] {
  const byName = new Map<string, EvalAssertion>();
  for (const group of groups)
    for (const assertion of group.assertions) if (!byName.has(assertion.name)) byName.set(assertion.name, assertion);
  return [...byName.values()];
}
