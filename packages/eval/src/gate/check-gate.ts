import type { EvalGate, EvalGateCheck, EvalGroupSummary, EvalSample, EvalSummary } from "@uwf/protocol";
import { describeGroup } from "../format/describe-group.ts";
import { describeSampleError } from "../format/describe-sample-error.ts";
import { formatRate } from "../format/format-number.ts";
import { groupBy } from "../summary/summarize-samples.ts";

/** What checkGate found: whether the gate held (null without a gate) and each check. */
export interface GateResult {
  held: boolean | null;
  checks: EvalGateCheck[];
}

/** Rates that differ by less than this are equal: 4/5 is not below 0.8 however it rounds. */
const TOLERANCE = 1e-9;

/**
 * The gate's checks on a report: `min-pass-rate` (the overall pass rate), `min-case-pass-rate` (every case
 * of every variant, or every variant when the samples name no cases), `pass-k` (every case of every
 * variant passed all of its first K repeats, by repeat number) when the gate asks for them, and always
 * `errors` (an errored sample fails it unless `allowErrors`), even without a gate, so that errored samples
 * are never silent. `held` is whether every check held, null when there is no gate. `summary` must be
 * summarizeSamples of `samples` with the gate's `allowErrors`.
 *
 * The CLI exits 1 when `errors` failed, else 3 when another check failed, else 0. Each check's detail is
 * one sentence naming the worst offender, with rates written as formatRate writes them (`0.80`).
 */
export function checkGate(summary: EvalSummary, samples: readonly EvalSample[], gate: EvalGate | null): GateResult {
  const allowErrors = gate?.allowErrors ?? summary.allowErrors ?? false;
  const checks: EvalGateCheck[] = [];
  if (gate?.minPassRate !== undefined) checks.push(checkMinPassRate(summary.overall, gate.minPassRate, allowErrors));
  if (gate?.minCasePassRate !== undefined)
    checks.push(checkMinCasePassRate(summary, gate.minCasePassRate, allowErrors));
  if (gate?.passK !== undefined) checks.push(checkPassK(samples, gate.passK));
  checks.push(checkErrors(samples, allowErrors));
  return { held: gate === null ? null : checks.every((check) => check.held), checks };
}

function judgedCount(group: EvalGroupSummary, allowErrors: boolean): number {
  return group.passed + group.failed + (allowErrors ? group.errored : 0);
}

function checkMinPassRate(overall: EvalGroupSummary, minimum: number, allowErrors: boolean): EvalGateCheck {
  const judged = judgedCount(overall, allowErrors);
  if (overall.passRate === null || overall.passRate === undefined)
    return {
      check: "min-pass-rate",
      held: false,
      detail: `no pass rate to hold to ${formatRate(minimum)}: ${overall.errored === 0 ? "no samples" : `all ${overall.errored} samples errored`}`,
    };
  const held = overall.passRate >= minimum - TOLERANCE;
  return {
    check: "min-pass-rate",
    held,
    detail: `pass rate ${formatRate(overall.passRate)} (${overall.passed} of ${judged} passed), ${held ? "at least" : "below"} ${formatRate(minimum)}`,
  };
}

/** One unit the case checks look at: a case of a variant, or a variant whose samples name no case. */
interface CheckedGroup {
  variant: string | null;
  case: string | null;
  summary: EvalGroupSummary;
}

function checkedGroups(summary: EvalSummary): CheckedGroup[] {
  return summary.variants.flatMap((variant): CheckedGroup[] =>
    variant.cases.every((entry) => entry.case === null)
      ? [{ variant: variant.variant, case: null, summary: variant }]
      : variant.cases.map((entry) => ({ variant: variant.variant, case: entry.case, summary: entry })),
  );
}

function checkMinCasePassRate(summary: EvalSummary, minimum: number, allowErrors: boolean): EvalGateCheck {
  const groups = checkedGroups(summary);
  if (groups.length === 0) return { check: "min-case-pass-rate", held: false, detail: "no samples to check" };
  // Sort is stable: among equal rates the first case in the report is named. A case with no rate is worst.
  const ranked = [...groups].sort(
    (left, right) =>
      (left.summary.passRate ?? Number.NEGATIVE_INFINITY) - (right.summary.passRate ?? Number.NEGATIVE_INFINITY),
  );
  const worst = ranked[0] as CheckedGroup;
  const failing = groups.filter((group) => (group.summary.passRate ?? Number.NEGATIVE_INFINITY) < minimum - TOLERANCE);
  const unit = worst.case === null ? "samples" : "repeats";
  const judged = judgedCount(worst.summary, allowErrors);
  const found =
    worst.summary.passRate === null || worst.summary.passRate === undefined
      ? `no pass rate (all ${worst.summary.errored} ${unit} errored)`
      : `${worst.summary.passed} of ${judged} ${unit} passed (${formatRate(worst.summary.passRate)})`;
  if (failing.length === 0)
    return {
      check: "min-case-pass-rate",
      held: true,
      detail: `every ${groups.some((group) => group.case !== null) ? "case" : "variant"} at least ${formatRate(minimum)}; the lowest, ${describeGroup(worst.variant, worst.case)}: ${found}`,
    };
  const more = failing.length > 1 ? `; ${failing.length - 1} more below it` : "";
  return {
    check: "min-case-pass-rate",
    held: false,
    detail: `${describeGroup(worst.variant, worst.case)}: ${found}, below ${formatRate(minimum)}${more}`,
  };
}

function checkPassK(samples: readonly EvalSample[], k: number): EvalGateCheck {
  const offenders: { group: string; passed: number; taken: number; problem: string }[] = [];
  let groups = 0;
  for (const [variant, variantSamples] of groupBy(samples, (sample) => sample.variant)) {
    for (const [caseName, caseSamples] of groupBy(variantSamples, (sample) => sample.case)) {
      groups++;
      const first = byRepeat(caseSamples).slice(0, k);
      const passed = first.filter((sample) => sample.verdict === "passed").length;
      const group = describeGroup(variant, caseName);
      if (first.length < k) {
        offenders.push({
          group,
          passed,
          taken: first.length,
          problem: `${group} has ${first.length} ${first.length === 1 ? "repeat" : "repeats"}, fewer than ${k}`,
        });
      } else if (passed < k) {
        const missed = first.find((sample) => sample.verdict !== "passed") as EvalSample;
        offenders.push({
          group,
          passed,
          taken: first.length,
          problem: `${group}: ${passed} of its first ${k} repeats passed (${describeRepeat(missed, first)} ${missed.verdict})`,
        });
      }
    }
  }
  if (offenders.length === 0)
    return {
      check: "pass-k",
      held: groups > 0,
      detail: groups > 0 ? `every case passed all of its first ${k} repeats` : "no samples to check",
    };
  // The worst: fewest passes among the first K, a case short of K repeats before a case that has them.
  const worst = [...offenders].sort((left, right) => left.passed - right.passed || left.taken - right.taken)[0];
  const more =
    offenders.length > 1 ? `; ${offenders.length - 1} more ${offenders.length === 2 ? "case" : "cases"} too` : "";
  return { check: "pass-k", held: false, detail: `${worst?.problem}${more}` };
}

/** The samples by repeat number (those without one after, in their order). */
function byRepeat(samples: readonly EvalSample[]): EvalSample[] {
  return [...samples].sort(
    (left, right) => (left.repeat ?? Number.MAX_SAFE_INTEGER) - (right.repeat ?? Number.MAX_SAFE_INTEGER),
  );
}

function describeRepeat(sample: EvalSample, taken: readonly EvalSample[]): string {
  return sample.repeat === null
    ? `sample ${taken.indexOf(sample) + 1} (thread ${sample.thread})`
    : `repeat ${sample.repeat}`;
}

function checkErrors(samples: readonly EvalSample[], allowErrors: boolean): EvalGateCheck {
  const errored = samples.filter((sample) => sample.verdict === "errored");
  if (errored.length === 0) return { check: "errors", held: true, detail: "no sample errored" };
  const count = `${errored.length} ${errored.length === 1 ? "sample" : "samples"} errored`;
  if (allowErrors) return { check: "errors", held: true, detail: `${count}, counted as failed (errors allowed)` };
  const first = errored[0] as EvalSample;
  const more = errored.length > 1 ? `; ${errored.length - 1} more` : "";
  return {
    check: "errors",
    held: false,
    detail: `${count}: thread ${first.thread}: ${describeSampleError(first)}${more}`,
  };
}
