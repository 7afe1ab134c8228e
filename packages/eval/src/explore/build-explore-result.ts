import type { EvalSample, ExploreResult, ExploreStepResult } from "@uwf/protocol";
import { wilsonInterval } from "../summary/wilson-interval.ts";
import type { StoredExploreReport } from "./explore-thread.ts";

/** Effects this close to the largest are as decisive as it (rates are fractions of small counts). */
const EFFECT_TOLERANCE = 1e-9;

/**
 * What an exploration shows: per step its re-runs' pass rate (passed / (passed + failed): errored
 * re-runs are left out) with its 95% Wilson interval, and its effect: the next explored step's pass
 * rate minus its own, or for the last step the original verdict (1 passed, 0 failed) minus it. The
 * steps of largest effect by size are decisive (none when no effect is above 0). The gate compares
 * the first explored step's pass rate with `minPassRate`.
 */
export function buildExploreResult(stored: StoredExploreReport): ExploreResult {
  const { entry, node } = stored;
  const rates = node.steps.map((step) => passRateOf(step.samples));
  const originalValue = node.original.verdict === "passed" ? 1 : node.original.verdict === "failed" ? 0 : null;
  const steps = node.steps.map((step, index): ExploreStepResult => {
    const counts = countVerdicts(step.samples);
    const rate = rates[index] ?? null;
    const next = index + 1 < rates.length ? (rates[index + 1] ?? null) : originalValue;
    const interval = wilsonInterval(counts.passed, counts.passed + counts.failed);
    return {
      step: step.step,
      role: step.role,
      from: step.from,
      samples: step.samples.length,
      ...counts,
      unstarted: step.unstarted.length,
      passRate: rate,
      interval: interval === null ? null : [interval.low, interval.high],
      effect: rate === null || next === null ? null : round(next - rate),
      decisive: false,
      forks: step.samples.map((sample) => ({ thread: sample.thread, verdict: sample.verdict })),
    };
  });
  const largest = Math.max(0, ...steps.map((step) => Math.abs(step.effect ?? 0)));
  const decisive: number[] = [];
  if (largest > 0) {
    for (const step of steps) {
      if (step.effect !== null && Math.abs(step.effect) >= largest - EFFECT_TOLERANCE) {
        step.decisive = true;
        decisive.push(step.step);
      }
    }
  }
  const gateRate = rates[0] ?? null;
  return {
    report: entry.id,
    address: entry.address,
    name: node.name,
    createdAt: node.createdAt,
    thread: node.thread,
    head: node.head,
    assertions: node.assertions,
    original: { verdict: node.original.verdict, status: node.original.status },
    samplesPerStep: node.samplesPerStep,
    steps,
    decisive,
    gate: node.gate,
    gateHeld: node.gate === null ? null : gateRate !== null && gateRate >= node.gate.minPassRate,
    rescoredFrom: node.rescoredFrom,
  };
}

function countVerdicts(samples: readonly EvalSample[]): { passed: number; failed: number; errored: number } {
  const count = (verdict: EvalSample["verdict"]) => samples.filter((sample) => sample.verdict === verdict).length;
  return { passed: count("passed"), failed: count("failed"), errored: count("errored") };
}

function passRateOf(samples: readonly EvalSample[]): number | null {
  const { passed, failed } = countVerdicts(samples);
  return passed + failed === 0 ? null : passed / (passed + failed);
}

/** Differences of fractions, without the binary noise (0.30000000000000004). */
function round(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}
