import type { EvalAssertion, EvalCaseSummary, EvalSample, EvalSummary, EvalVariantSummary } from "@uwf/protocol";
import { passAtKTable } from "./pass-at-k.ts";
import { type SummarizeGroupOptions, summarizeGroup } from "./summarize-group.ts";

export interface SummarizeSamplesOptions extends SummarizeGroupOptions {}

/**
 * A report's summary: all samples, then each variant (in the order its first sample comes; one variant
 * `null` when the samples name none), and within each variant each case (likewise; one case `null` when
 * they name none). A case's pass@k and pass^k are listed for k = 1 … n when it has more than one sample,
 * n being the samples its pass rate counts (passed + failed, errored too with `allowErrors`). The same
 * samples in the same order always give the same summary.
 */
export function summarizeSamples(
  samples: readonly EvalSample[],
  assertions: readonly Pick<EvalAssertion, "name">[],
  options: SummarizeSamplesOptions = {},
): EvalSummary {
  const groupOptions = { allowErrors: options.allowErrors === true };
  return {
    overall: summarizeGroup(samples, assertions, groupOptions),
    variants: [...groupBy(samples, (sample) => sample.variant)].map(
      ([variant, variantSamples]): EvalVariantSummary => ({
        variant,
        ...summarizeGroup(variantSamples, assertions, groupOptions),
        cases: [...groupBy(variantSamples, (sample) => sample.case)].map(([name, caseSamples]): EvalCaseSummary => {
          const summary = summarizeGroup(caseSamples, assertions, groupOptions);
          const total = summary.passed + summary.failed + (groupOptions.allowErrors ? summary.errored : 0);
          return {
            case: name,
            ...summary,
            // Repeats are a suite's: threads selected from the store (no case) are no repeats of one task.
            passAtK: name !== null && caseSamples.length > 1 ? passAtKTable(total, summary.passed) : [],
          };
        }),
      }),
    ),
    allowErrors: groupOptions.allowErrors,
  };
}

/** The samples grouped by a key, groups in the order their first sample comes, samples in their order. */
export function groupBy<Key>(
  samples: readonly EvalSample[],
  keyOf: (sample: EvalSample) => Key,
): Map<Key, EvalSample[]> {
  const groups = new Map<Key, EvalSample[]>();
  for (const sample of samples) {
    const key = keyOf(sample);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [sample]);
    else group.push(sample);
  }
  return groups;
}
