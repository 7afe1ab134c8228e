import type { EvalAssertion, EvalGate, EvalResult, EvalSample } from "@uwf/protocol";
import { compareVariants } from "../src/compare/compare-summaries.ts";
import { checkGate } from "../src/gate/check-gate.ts";
import { summarizeSamples } from "../src/summary/summarize-samples.ts";

/** A report as `uwf eval` returns it, made from samples by the real summary, gate and comparison. */
export function buildResult(
  samples: EvalSample[],
  options: { assertions?: EvalAssertion[]; gate?: EvalGate | null; baselineVariant?: string } = {},
): EvalResult {
  const assertions = options.assertions ?? [{ name: "ok", kind: "outcome", status: "approved" }];
  const gate = options.gate ?? null;
  const summary = summarizeSamples(samples, assertions, { allowErrors: gate?.allowErrors });
  const { held, checks } = checkGate(summary, samples, gate);
  return {
    report: "01JREPORT0000000000000000A",
    address: "0REPORTADDRES",
    name: "checkout",
    createdAt: "2026-11-27T03:41:00.000Z",
    source: { kind: "suite", file: "/work/suite.yaml", text: "0SUITETEXT000" },
    assertions,
    gate,
    gateHeld: held,
    gateChecks: checks,
    rescoredFrom: null,
    summary,
    comparisons:
      options.baselineVariant === undefined ? [] : compareVariants(summary, options.baselineVariant, { report: null }),
    samples,
    unstarted: [],
  };
}
