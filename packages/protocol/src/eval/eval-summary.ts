import { z } from "zod";
import { threadStatusSchema } from "../threads/thread-record.ts";

/** p50, p90, max, mean and total of one metric over samples (nearest-rank percentiles); null fields with no samples. */
export const evalDistributionSchema = z
  .object({
    p50: z.number().nullable(),
    p90: z.number().nullable(),
    max: z.number().nullable(),
    mean: z.number().nullable(),
    total: z.number(),
  })
  .strict();
export type EvalDistribution = z.infer<typeof evalDistributionSchema>;

/** How the samples ended: thread status, final `$status` and ending role, and how many. */
export const evalOutcomeCountSchema = z
  .object({
    status: threadStatusSchema,
    outcome: z.string().nullable(),
    role: z.string().nullable(),
    count: z.number().int().positive(),
  })
  .strict();

/** A field of the final reply: value counts when categorical, min/mean/max when every value is a number. */
export const evalFieldSummarySchema = z.discriminatedUnion("kind", [
  z
    .object({
      field: z.string(),
      kind: z.literal("categorical"),
      /** Values as JSON text (`"approved"`, `true`, `3`), most frequent first, at most 10; `other` counts the rest. */
      values: z.array(z.object({ value: z.string(), count: z.number().int().positive() }).strict()),
      other: z.number().int().nonnegative(),
    })
    .strict(),
  z
    .object({
      field: z.string(),
      kind: z.literal("numeric"),
      count: z.number().int().positive(),
      min: z.number(),
      mean: z.number(),
      max: z.number(),
    })
    .strict(),
]);
export type EvalFieldSummary = z.infer<typeof evalFieldSummarySchema>;

/** The summary of a group of samples: all of them, one variant's, or one case's within a variant. */
export const evalGroupSummarySchema = z
  .object({
    samples: z.number().int().nonnegative(),
    passed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    errored: z.number().int().nonnegative(),
    /** passed / (passed + failed); errored samples are left out (or counted as failed with allowErrors). Null with none. */
    passRate: z.number().min(0).max(1).nullable(),
    /** The 95% Wilson score interval of the pass rate. */
    interval: z.object({ low: z.number(), high: z.number() }).strict().nullable(),
    /**
     * The mean of the samples' scores (each the weighted mean of its assertions' scores), over the samples
     * with a score; null with none. Optional only so summaries built before it still parse.
     */
    meanScore: z.number().min(0).max(1).nullable().optional(),
    /** Each assertion's mean score over the samples where it did not err, in the report's order. */
    assertions: z.array(
      z
        .object({
          name: z.string(),
          mean: z.number().nullable(),
          passed: z.number().int().nonnegative(),
          failed: z.number().int().nonnegative(),
          errored: z.number().int().nonnegative(),
        })
        .strict(),
    ),
    outcomes: z.array(evalOutcomeCountSchema),
    /** The most frequent role paths, most frequent first, at most 5. */
    paths: z.array(z.object({ path: z.array(z.string()), count: z.number().int().positive() }).strict()),
    steps: evalDistributionSchema,
    tokens: evalDistributionSchema,
    costUsd: evalDistributionSchema,
    durationMs: evalDistributionSchema,
    fields: z.array(evalFieldSummarySchema),
  })
  .strict();
export type EvalGroupSummary = z.infer<typeof evalGroupSummarySchema>;

/** With repeats: the unbiased pass@k (one of k passes) and pass^k (all k pass) estimates of a case, for k = 1 … repeats. */
export const evalPassAtKSchema = z
  .object({ k: z.number().int().positive(), passAtK: z.number().min(0).max(1), passHatK: z.number().min(0).max(1) })
  .strict();

export const evalCaseSummarySchema = evalGroupSummarySchema.extend({
  case: z.string().nullable(),
  passAtK: z.array(evalPassAtKSchema),
});
export type EvalCaseSummary = z.infer<typeof evalCaseSummarySchema>;

export const evalVariantSummarySchema = evalGroupSummarySchema.extend({
  variant: z.string().nullable(),
  cases: z.array(evalCaseSummarySchema),
});
export type EvalVariantSummary = z.infer<typeof evalVariantSummarySchema>;

export const evalSummarySchema = z
  .object({
    overall: evalGroupSummarySchema,
    variants: z.array(evalVariantSummarySchema),
    /** Whether errored samples were counted as failed in the pass rates (`--allow-errors`); absent means not. */
    allowErrors: z.boolean().optional(),
  })
  .strict();
export type EvalSummary = z.infer<typeof evalSummarySchema>;

/** One metric compared with the baseline: its value in each and the difference (current minus baseline). */
export const evalMetricDeltaSchema = z
  .object({
    metric: z.string(),
    baseline: z.number().nullable(),
    current: z.number().nullable(),
    delta: z.number().nullable(),
  })
  .strict();

/** A case whose pass rate moved against the baseline. */
export const evalCaseChangeSchema = z
  .object({
    case: z.string().nullable(),
    variant: z.string().nullable(),
    baseline: z.number().nullable(),
    current: z.number().nullable(),
  })
  .strict();

/**
 * A variant (or a whole report) against its baseline (`--baseline VARIANT|REPORT`, `eval diff`): the
 * metrics' deltas (pass rate, mean score, each assertion's mean, steps, tokens, cost and duration p50/p90)
 * and the cases whose pass rate fell (regressed) or rose (improved).
 */
export const evalComparisonSchema = z
  .object({
    baseline: z.object({ report: z.string().nullable(), variant: z.string().nullable() }).strict(),
    current: z.object({ report: z.string().nullable(), variant: z.string().nullable() }).strict(),
    metrics: z.array(evalMetricDeltaSchema),
    regressed: z.array(evalCaseChangeSchema),
    improved: z.array(evalCaseChangeSchema),
  })
  .strict();
export type EvalComparison = z.infer<typeof evalComparisonSchema>;
