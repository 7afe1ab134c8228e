import type { EvalDiffResult } from "@uwf/protocol";
import { compareReports } from "../compare/compare-summaries.ts";
import { summarizeSamples } from "../summary/summarize-samples.ts";
import type { StoredEvalReport } from "./resolve-eval-report.ts";

/** `eval diff R1 R2`: R2 against R1 (its baseline), variant by variant where both have it, and whole. */
export function diffEvalReports(baseline: StoredEvalReport, current: StoredEvalReport): EvalDiffResult {
  const summarize = ({ node }: StoredEvalReport) =>
    summarizeSamples(node.samples, node.assertions, { allowErrors: node.gate?.allowErrors === true });
  return {
    baseline: baseline.entry.id,
    current: current.entry.id,
    comparisons: compareReports(
      { summary: summarize(baseline), report: baseline.entry.id },
      { summary: summarize(current), report: current.entry.id },
    ),
  };
}
