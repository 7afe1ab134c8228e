import { z } from "zod";
import { addressSchema } from "../ids/address.ts";
import { evalAssertionSchema } from "./eval-assertion.ts";
import { evalGateCheckSchema, evalGateSchema } from "./eval-gate.ts";
import { evalReportNodeSchema, evalSourceSchema } from "./eval-report.ts";
import { evalSampleSchema } from "./eval-sample.ts";
import { evalComparisonSchema, evalSummarySchema } from "./eval-summary.ts";

/**
 * `uwf eval`, `eval show`, `eval rescore`: a stored report (its id and node) with its summary, the gate's
 * checks, and the comparisons with a baseline (one per variant compared; none without `--baseline`).
 */
export const evalResultSchema = z.object({
  report: z.string(),
  address: addressSchema,
  name: z.string(),
  createdAt: z.string(),
  source: evalSourceSchema,
  assertions: z.array(evalAssertionSchema),
  gate: evalGateSchema.nullable(),
  /** Whether the gate held; null without a gate. */
  gateHeld: z.boolean().nullable(),
  gateChecks: z.array(evalGateCheckSchema),
  rescoredFrom: addressSchema.nullable(),
  summary: evalSummarySchema,
  comparisons: z.array(evalComparisonSchema),
  samples: z.array(evalSampleSchema),
  unstarted: evalReportNodeSchema.shape.unstarted,
  /** Where `--html FILE` wrote the page; absent without it. */
  html: z.string().optional(),
});
export type EvalResult = z.infer<typeof evalResultSchema>;

/** `uwf eval list`: stored reports, newest first, with their headline numbers. */
export const evalListResultSchema = z.object({
  reports: z.array(
    z.object({
      report: z.string(),
      /** An evaluation (`eval-report/1`) or an exploration (`explore-report/1`, `uwf explore show`). */
      kind: z.enum(["eval", "explore"]),
      address: addressSchema,
      name: z.string(),
      createdAt: z.string(),
      /** Every sample; an exploration's re-runs of all its steps. */
      samples: z.number().int().nonnegative(),
      passRate: z.number().nullable(),
    }),
  ),
  total: z.number().int().nonnegative(),
});
export type EvalListResult = z.infer<typeof evalListResultSchema>;

/** `uwf eval diff R1 R2`: R2 against R1, whole and per variant the two share. */
export const evalDiffResultSchema = z.object({
  baseline: z.string(),
  current: z.string(),
  comparisons: z.array(evalComparisonSchema),
});
export type EvalDiffResult = z.infer<typeof evalDiffResultSchema>;
