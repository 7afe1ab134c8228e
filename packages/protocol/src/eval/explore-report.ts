import { z } from "zod";
import { addressSchema } from "../ids/address.ts";
import { nodeSchema } from "../json/node-schema.ts";
import { threadIdSchema } from "../threads/thread-record.ts";
import { evalAssertionSchema } from "./eval-assertion.ts";
import { evalSampleSchema } from "./eval-sample.ts";

/** An exploration's gate: the pass rate of the re-runs from its first explored step must reach this. */
export const exploreGateSchema = z.object({ minPassRate: z.number().min(0).max(1) }).strict();
export type ExploreGate = z.infer<typeof exploreGateSchema>;

/**
 * One explored step: the re-runs from it (forks at `from`, the node before the step, each run to its
 * end), scored as samples; and the re-runs that could not start or finish (Ctrl-C, `--max-cost`).
 */
export const exploreStepSchema = z
  .object({
    /** The step's number in the explored thread (1 = its first step). */
    step: z.number().int().positive(),
    role: z.string(),
    /** The node the re-runs were forked at: the previous step's, or the start node for step 1. */
    from: addressSchema,
    samples: z.array(evalSampleSchema),
    unstarted: z.array(z.object({ repeat: z.number().int().nonnegative(), error: z.string() }).strict()),
  })
  .strict();
export type ExploreStep = z.infer<typeof exploreStepSchema>;

/**
 * An exploration (`uwf explore THREAD`), immutable in the object store and named in the ref store's
 * report list like an `eval-report/1`: the thread resampled from each chosen step, the assertions that
 * scored every re-run, the original thread's own sample, and each step's re-runs. Pass rates, intervals
 * and effects are computed from the samples when shown, so `explore rescore` re-judges without re-running.
 */
export const exploreReportNodeSchema = nodeSchema("explore-report/1", {
  name: z.string(),
  createdAt: z.iso.datetime(),
  thread: threadIdSchema,
  /** The explored thread's head, as the exploration read it. */
  head: addressSchema,
  /** Re-runs asked for per step (`--samples`). */
  samplesPerStep: z.number().int().positive(),
  assertions: z.array(evalAssertionSchema),
  /** The explored thread itself, scored as it stood. */
  original: evalSampleSchema,
  steps: z.array(exploreStepSchema),
  gate: exploreGateSchema.nullable(),
  /** The report `explore rescore` scored the same re-runs of again; null otherwise. */
  rescoredFrom: addressSchema.nullable(),
});
export type ExploreReportNode = z.infer<typeof exploreReportNodeSchema>;

/** One step's line of an exploration: its re-runs' pass rate with its 95% Wilson interval, and its effect. */
export const exploreStepResultSchema = z.object({
  step: z.number().int().positive(),
  role: z.string(),
  from: addressSchema,
  samples: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  errored: z.number().int().nonnegative(),
  /** Re-runs that never became samples (interrupted, the exploration's budget). */
  unstarted: z.number().int().nonnegative(),
  /** passed / (passed + failed); null when no re-run was judged. */
  passRate: z.number().min(0).max(1).nullable(),
  /** The 95% Wilson interval of the pass rate, [low, high]; null with it. */
  interval: z.tuple([z.number(), z.number()]).nullable(),
  /**
   * How much the step's own recorded result moved the chances: the next explored step's pass rate (the
   * original verdict's 1 or 0 after the last) minus this one's; null when either is unknown.
   */
  effect: z.number().nullable(),
  decisive: z.boolean(),
  /** The re-runs: each fork and its verdict. */
  forks: z.array(z.object({ thread: threadIdSchema, verdict: z.enum(["passed", "failed", "errored"]) })),
});
export type ExploreStepResult = z.infer<typeof exploreStepResultSchema>;

/** `uwf explore`, `explore show`, `explore rescore`: a stored exploration with its per-step summary. */
export const exploreResultSchema = z.object({
  report: z.string(),
  address: addressSchema,
  name: z.string(),
  createdAt: z.string(),
  thread: threadIdSchema,
  head: addressSchema,
  assertions: z.array(evalAssertionSchema),
  /** The explored thread's own verdict with these assertions. */
  original: z.object({ verdict: z.enum(["passed", "failed", "errored"]), status: z.string() }),
  samplesPerStep: z.number().int().positive(),
  steps: z.array(exploreStepResultSchema),
  /** The steps of largest effect (by its size); empty when no step moved the chances. */
  decisive: z.array(z.number().int().positive()),
  gate: exploreGateSchema.nullable(),
  /** Whether the gate held; null without a gate. */
  gateHeld: z.boolean().nullable(),
  rescoredFrom: addressSchema.nullable(),
  /** What this call's re-runs spent (US dollars) and why it stopped early; absent on show and rescore. */
  spentUsd: z.number().optional(),
  stoppedBy: z.enum(["max-cost", "interrupted"]).nullable().optional(),
  /** Where `--html FILE` wrote the page; absent without it. */
  html: z.string().optional(),
});
export type ExploreResult = z.infer<typeof exploreResultSchema>;
