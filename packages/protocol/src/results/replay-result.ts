import { z } from "zod";
import { addressSchema } from "../ids/address.ts";
import { threadIdSchema, threadStatusSchema } from "../threads/thread-record.ts";

/**
 * Why a replayed thread parts from the new workflow, at its first such step:
 * - `reply-refused`: the new role schema refuses the recorded reply (`field`, `reason`);
 * - `answer-refused`: the new role's `answer:` schema refuses the person's recorded answer;
 * - `route-changed`: the new graph routes elsewhere (`expected` is what came next in the thread, `actual` the new pick);
 * - `role-missing`: the recorded role is not in the new workflow;
 * - `prompt-failed`: the edge the new graph takes cannot render its prompt;
 * - `no-route`: no edge of the new graph holds for the reply (or a condition fails to evaluate);
 * - `inputs-refused`: the new workflow's `inputs:` schema refuses the thread's start inputs (step 0).
 */
export const replayDivergenceKindSchema = z.enum([
  "reply-refused",
  "answer-refused",
  "route-changed",
  "role-missing",
  "prompt-failed",
  "no-route",
  "inputs-refused",
]);
export type ReplayDivergenceKind = z.infer<typeof replayDivergenceKindSchema>;

/** The first step at which a thread replays differently. */
export const replayDivergenceSchema = z
  .object({
    kind: replayDivergenceKindSchema,
    /** The step's number (1 = the first step); 0 for the route from `$START` to the first step. */
    step: z.number().int().nonnegative(),
    /** That step's node (the start node for step 0). */
    address: addressSchema,
    /** The role of that step (`$START` for step 0). */
    role: z.string(),
    /** The field the schema refused, when the problem names one. */
    field: z.string().nullable(),
    /** What was recorded: the role that came next, `$END`, `$SUSPEND`, or the missing role. Null when not about a route or role. */
    expected: z.string().nullable(),
    /** What the new workflow does instead: the role it picks, `$END`. Null when it picks none. */
    actual: z.string().nullable(),
    /** The problem in a sentence. */
    reason: z.string(),
  })
  .strict();
export type ReplayDivergence = z.infer<typeof replayDivergenceSchema>;

/** Steps the replay did not check, and why (a branch thread named on its own; a fan-out with no join recorded after it). */
export const replayNotReplayedSchema = z
  .object({
    /** The first step not checked. */
    fromStep: z.number().int().positive(),
    reason: z.string(),
  })
  .strict();
export type ReplayNotReplayed = z.infer<typeof replayNotReplayedSchema>;

/** One thread's replay. */
export const replayedThreadSchema = z
  .object({
    thread: threadIdSchema,
    /** The workflow the thread ran under: its name and address. */
    workflow: z.string(),
    workflowAddress: addressSchema,
    status: threadStatusSchema,
    /** The thread's recorded steps. */
    steps: z.number().int().nonnegative(),
    /** The steps whose reply and route were checked before the first divergence (or all that could be). */
    replayed: z.number().int().nonnegative(),
    /** Branch threads joined on this thread's chain (nested ones too): each replayed, its own steps after its join's. */
    branches: z.number().int().nonnegative(),
    result: z.enum(["identical", "diverged"]),
    divergence: replayDivergenceSchema.nullable(),
    notReplayed: replayNotReplayedSchema.nullable(),
  })
  .strict();
export type ReplayedThread = z.infer<typeof replayedThreadSchema>;

/** `uwf replay --json`: every thread's replay through one workflow, and the counts. */
export const replayResultSchema = z
  .object({
    /** The workflow replayed through: its name, address (not stored by the replay) and the file it was read from. */
    workflow: z.object({ name: z.string(), address: addressSchema, file: z.string().nullable() }).strict(),
    threads: z.array(replayedThreadSchema),
    identical: z.number().int().nonnegative(),
    diverged: z.number().int().nonnegative(),
  })
  .strict();
export type ReplayResult = z.infer<typeof replayResultSchema>;
