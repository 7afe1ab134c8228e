import { z } from "zod";
import { usageSchema } from "../budget/usage.ts";
import { addressSchema } from "../ids/address.ts";
import { threadIdSchema, threadOutcomeSchema, threadStatusSchema } from "../threads/thread-record.ts";
import { COMPARE_SORT_KEYS } from "./compare-sort-keys.ts";

export const compareSortKeySchema = z.enum(COMPARE_SORT_KEYS);

/**
 * Where a member's chain leaves the original's: the first step it does not share with it (its number,
 * role and address in the member's own chain). `replaced` when that step is a reply a counterfactual fork
 * (`fork --output`) wrote in place of the original's, its own or one it inherited from its parent.
 */
export const comparePartingSchema = z.object({
  step: z.number().int().positive(),
  role: z.string(),
  address: addressSchema,
  replaced: z.boolean(),
});
export type CompareParting = z.infer<typeof comparePartingSchema>;

/** One member of the compared family. */
export const compareRowSchema = z.object({
  thread: threadIdSchema,
  status: threadStatusSchema,
  /** How an ended thread ended: the ending role and its `$status` (absent unless ended, and on threads ended before outcomes were kept). */
  outcome: threadOutcomeSchema.optional(),
  /** The error code a `failed` thread failed with. */
  failure: z.string().optional(),
  /** 0 for the original, 1 for its forks, 2 for their forks… */
  depth: z.number().int().nonnegative(),
  /** The member it was forked from (null for the original). */
  parent: threadIdSchema.nullable(),
  /** Its own fork point: the step of its parent's chain it was forked at (0: the start node), and whether it replaced that step's reply. Null for the original when it is no fork. */
  forkedAt: z
    .object({ step: z.number().int().nonnegative(), address: addressSchema, replaced: z.boolean() })
    .nullable(),
  head: addressSchema,
  /** Steps in its whole chain. */
  stepCount: z.number().int().nonnegative(),
  /** The steps it took itself, after its fork point (countChainSteps: a replaced reply, which no agent ran, is not one). */
  ownSteps: z.number().int().nonnegative(),
  /** What its own agent runs used (failed runs included); a fork's spend starts at zero at its fork point. */
  usage: usageSchema,
  /** Input plus output tokens of `usage`. */
  tokens: z.number().int().nonnegative(),
  /**
   * Wall time from the start of its first own step an agent ran to the end of its last step (a replaced
   * reply is written, not run, so it does not start the clock): time waiting for an answer between steps
   * counts, time before its first step does not. Null when it has no such step.
   */
  durationMs: z.number().nonnegative().nullable(),
  /** The first step where its chain leaves the original's; null for the original, and for a member that holds no step the original lacks. */
  parts: comparePartingSchema.nullable(),
});
export type CompareRow = z.infer<typeof compareRowSchema>;

/**
 * `uwf compare T`: one row per member of T's fork family, the original (`rows[0]`) first. Asked about a
 * step or start node, the family is the forks made at that node (and theirs), with the thread that
 * recorded the node as the original.
 */
export const compareResultSchema = z.object({
  /** What was asked about, as typed. */
  reference: z.string(),
  workflow: z.string(),
  /** The original every row is compared with (`rows[0]`); null when asked about a node no thread holds. */
  original: threadIdSchema.nullable(),
  /** Asked about a node: that node and its step number (0: a start node). Null when asked about a thread. */
  at: z.object({ address: addressSchema, step: z.number().int().nonnegative() }).nullable(),
  /** Whether forks of forks are members (the default), or only the original's own forks (`--direct`). */
  direct: z.boolean(),
  /** The sort asked for (`--sort`); null: family order, each fork after its parent, by the step it was forked at, then oldest first. */
  sort: compareSortKeySchema.nullable(),
  rows: z.array(compareRowSchema),
});
export type CompareResult = z.infer<typeof compareResultSchema>;
