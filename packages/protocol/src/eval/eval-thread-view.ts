import { z } from "zod";
import { shownThreadSchema, stepSummarySchema } from "../results/thread-results.ts";

/** A step as assertions see it: `log --json`'s step, with its markdown body for command scorers and judges. */
export const evalStepViewSchema = stepSummarySchema.extend({
  /** The reply's markdown body; present for command scorers and judges, absent for JSONata. */
  body: z.string().optional(),
});
export type EvalStepView = z.infer<typeof evalStepViewSchema>;

/**
 * The thread as an assertion sees it: `show --json`'s record, its start, its steps oldest first and totals.
 * JSONata expressions are evaluated over it; command scorers read it as JSON on stdin.
 */
export const evalThreadViewSchema = shownThreadSchema.extend({
  start: z.object({ address: z.string(), prompt: z.string(), cwd: z.string() }),
  /** The start inputs, `{}` when none. */
  inputs: z.record(z.string(), z.unknown()),
  steps: z.array(evalStepViewSchema),
  /** The last step's output fields (`{}` before the first step). */
  final: z.record(z.string(), z.unknown()),
  /**
   * What the thread itself did, as its budget counts it (countThread): for a fork, the steps after its
   * fork point (a replaced reply is not one) and what its own agents spent, not its parent's; for a
   * fan-out's parent, its branches' steps too (nested ones included).
   */
  totals: z.object({
    steps: z.number().int().nonnegative(),
    /** Input plus output tokens (cache tokens not counted), failed runs included. */
    tokens: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative(),
    /** From its first own step's start to its last step's end; 0 before its first step. */
    durationMs: z.number().nonnegative(),
  }),
  /** Which suite case, variant and repeat made the thread; null when it was selected, not generated. */
  eval: z.object({ case: z.string().nullable(), variant: z.string().nullable(), repeat: z.number().int().nullable() }),
});
export type EvalThreadView = z.infer<typeof evalThreadViewSchema>;
