import type { EvalComparison, EvalGateCheck, EvalResult } from "@uwf/protocol";
import { compareReports, compareVariants } from "../compare/compare-summaries.ts";
import { checkGate } from "../gate/check-gate.ts";
import { summarizeSamples } from "../summary/summarize-samples.ts";
import type { StoredEvalReport } from "./resolve-eval-report.ts";

/** What a report is compared against: one of its own variants, or another stored report. */
export type EvalBaseline = { variant: string } | { report: StoredEvalReport };

/**
 * A stored report as commands show it: its summary, its gate's checks (runs that never started count
 * as errors, as errored samples do) and the comparisons with a baseline, all computed from its samples.
 */
export function buildEvalResult(stored: StoredEvalReport, options: { baseline?: EvalBaseline } = {}): EvalResult {
  const { entry, node } = stored;
  const allowErrors = node.gate?.allowErrors === true;
  const summary = summarizeSamples(node.samples, node.assertions, { allowErrors });
  const checks = withUnstarted(checkGate(summary, node.samples, node.gate).checks, node.unstarted.length, allowErrors);
  return {
    report: entry.id,
    address: entry.address,
    name: node.name,
    createdAt: node.createdAt,
    source: node.source,
    assertions: node.assertions,
    gate: node.gate,
    gateHeld: node.gate === null ? null : checks.every((check) => check.held),
    gateChecks: checks,
    rescoredFrom: node.rescoredFrom,
    summary,
    comparisons: comparisonsFor(stored, summary, options.baseline),
    samples: node.samples,
    unstarted: node.unstarted,
  };
}

function comparisonsFor(
  stored: StoredEvalReport,
  summary: EvalResult["summary"],
  baseline: EvalBaseline | undefined,
): EvalComparison[] {
  if (baseline === undefined) return [];
  if ("variant" in baseline) return compareVariants(summary, baseline.variant, { report: stored.entry.id });
  const { node } = baseline.report;
  const before = summarizeSamples(node.samples, node.assertions, { allowErrors: node.gate?.allowErrors === true });
  return compareReports({ summary: before, report: baseline.report.entry.id }, { summary, report: stored.entry.id });
}

/** Runs that never started fail the `errors` check as errored samples do, unless errors are allowed. */
function withUnstarted(checks: EvalGateCheck[], unstarted: number, allowErrors: boolean): EvalGateCheck[] {
  if (unstarted === 0 || allowErrors) return checks;
  const detail = `${unstarted} run${unstarted === 1 ? "" : "s"} did not start`;
  const errors = checks.find((check) => check.check === "errors");
  if (errors === undefined) return [...checks, { check: "errors", held: false, detail }];
  return checks.map((check) =>
    check === errors
      ? { check: "errors", held: false, detail: errors.held ? detail : `${errors.detail}; ${detail}` }
      : check,
  );
}
