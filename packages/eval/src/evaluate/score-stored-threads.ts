import type { Store } from "@uwf/cas";
import type { EvalAssertion, EvalSample } from "@uwf/protocol";
import { assertionsNeedBodies, scoreThreads } from "../score/score-threads.ts";
import { loadThreadViews, type ThreadViewTarget } from "../view/load-thread-view.ts";
import type { EvaluateOptions } from "./evaluate-options.ts";
import { judgeContextOf } from "./judge-context.ts";

/**
 * Scores stored threads as one group (their views read with bodies when a scorer needs them), the samples
 * in their order; says how many judging threads were reused.
 */
export async function scoreStoredThreads(
  store: Store,
  targets: readonly ThreadViewTarget[],
  assertions: readonly EvalAssertion[],
  options: Omit<EvaluateOptions, "gate" | "store">,
  sampleErrors?: ReadonlyMap<string, string>,
): Promise<EvalSample[]> {
  const views = await loadThreadViews(store, targets, {
    bodies: assertionsNeedBodies(assertions),
    signal: options.signal,
  });
  const judge = judgeContextOf({ ...options, store, gate: null });
  const samples = await scoreThreads({
    views,
    assertions,
    cwd: options.cwd,
    judge,
    signal: options.signal,
    ...(sampleErrors === undefined ? {} : { sampleErrors }),
  });
  judge.noteReused();
  return samples;
}
