import { z } from "zod";
import { addressSchema } from "../ids/address.ts";
import { threadIdSchema, threadOutcomeSchema, threadStatusSchema } from "../threads/thread-record.ts";

/**
 * One assertion's result on one thread. `errored` (with `error`) means the assertion could not judge: a
 * scorer that crashed or printed something else, an expression that threw, a judge thread that failed.
 */
export const evalScoreSchema = z
  .object({
    assertion: z.string(),
    verdict: z.enum(["passed", "failed", "errored"]),
    /** In [0, 1]: 1 or 0 for a pass/fail assertion; null when errored. */
    score: z.number().min(0).max(1).nullable(),
    reason: z.string().nullable(),
    error: z.string().nullable(),
    /** For a judge: the judging thread, its head when it was read. */
    judge: z.object({ thread: threadIdSchema, head: addressSchema }).nullable(),
  })
  .strict();
export type EvalScore = z.infer<typeof evalScoreSchema>;

/**
 * One scored thread (a sample). Its verdict: `errored` when a run failed to start or an assertion errored,
 * else `passed` when every assertion passed, else `failed`. What the report sums up is kept here, so a
 * report reads without its threads and stays as it was when the threads move on.
 */
export const evalSampleSchema = z
  .object({
    thread: threadIdSchema,
    /** The head scored. */
    head: addressSchema,
    /** Suite case, variant and repeat (0-based); null when the thread was selected rather than generated. */
    case: z.string().nullable(),
    variant: z.string().nullable(),
    repeat: z.number().int().nonnegative().nullable(),
    workflow: z.string(),
    status: threadStatusSchema,
    outcome: threadOutcomeSchema.nullable(),
    /** The roles of its steps, in order. */
    path: z.array(z.string()),
    steps: z.number().int().nonnegative(),
    tokens: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative(),
    durationMs: z.number().nonnegative(),
    /** The last step's output fields. */
    final: z.record(z.string(), z.unknown()),
    scores: z.array(evalScoreSchema),
    verdict: z.enum(["passed", "failed", "errored"]),
    /** The weighted mean of the scores that did not err; null when all erred or there were none. */
    score: z.number().min(0).max(1).nullable(),
    /** Why the sample errored without an assertion erring (a run that failed to start); null otherwise. */
    error: z.string().nullable(),
  })
  .strict();
export type EvalSample = z.infer<typeof evalSampleSchema>;

/**
 * What a command scorer prints (its whole stdout, one JSON object) and what a judge role replies in its
 * frontmatter: whether the thread passed, optionally a score in [0, 1] (default 1 or 0) and why.
 * Other fields are ignored.
 */
export const evalScorerReplySchema = z.object({
  pass: z.boolean(),
  score: z.number().min(0).max(1).optional(),
  reason: z.string().optional(),
});
export type EvalScorerReply = z.infer<typeof evalScorerReplySchema>;
