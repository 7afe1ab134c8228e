import { z } from "zod";

/**
 * What a report must reach for `uwf eval` to exit 0 (else 3). Errored samples make it exit 1 unless
 * `allowErrors`, which counts them as failing instead.
 */
export const evalGateSchema = z
  .object({
    /** The pass rate over all samples. */
    minPassRate: z.number().min(0).max(1).optional(),
    /** Every case's (and with no cases, every variant's) pass rate. */
    minCasePassRate: z.number().min(0).max(1).optional(),
    /** Every case (per variant) passed all of its first K repeats: pass^K observed on its first K samples. */
    passK: z.number().int().positive().optional(),
    allowErrors: z.boolean().optional(),
  })
  .strict();
export type EvalGate = z.infer<typeof evalGateSchema>;

/** One check of the gate and whether it held. */
export const evalGateCheckSchema = z
  .object({
    check: z.enum(["min-pass-rate", "min-case-pass-rate", "pass-k", "errors"]),
    held: z.boolean(),
    /**
     * What it found and what it wanted, in a line naming the worst offender: `pass rate 0.70 (14 of 20
     * passed), below 0.80`, `case "redirect" of variant "v2": 3 of 5 repeats passed (0.60), below 0.80`.
     */
    detail: z.string(),
  })
  .strict();
export type EvalGateCheck = z.infer<typeof evalGateCheckSchema>;
