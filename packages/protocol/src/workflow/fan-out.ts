import { z } from "zod";

/**
 * One branch of a fan-out as written: one step of a role of this workflow (`role:`, whose reply is the
 * branch's result; the role's own edges are not followed inside the branch), or a whole workflow run to
 * its end (`workflow:`, a registry name, started with the rendered `prompt` and `inputs`). `prompt` and
 * each string of `inputs` are Liquid templates over the fan-out step's context (the reply's fields,
 * `start`, `inputs`, and for `foreach` the item under its `as` name).
 */
export const branchTargetSchema = z
  .object({
    role: z.string().min(1).optional(),
    workflow: z.string().min(1).optional(),
    prompt: z.string().optional(),
    inputs: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type BranchTarget = z.infer<typeof branchTargetSchema>;

/**
 * When a fan-out's join runs: `all` (every branch ended; a failed or cancelled branch fails the join),
 * `all-settled` (every branch ended, failed or was cancelled), `any` (the first branch that ends; the
 * rest are cancelled), `{ quorum: N }` (N branches ended; the rest are cancelled).
 */
export const joinPolicySchema = z.union([
  z.enum(["all", "all-settled", "any"]),
  z.object({ quorum: z.number().int().positive() }).strict(),
]);
export type JoinPolicy = z.infer<typeof joinPolicySchema>;

/** The join as written: the role that runs once the policy holds, and its edge prompt (Liquid, sees `branches`). */
export const joinInputSchema = z
  .object({
    role: z.string().min(1),
    policy: joinPolicySchema.optional(),
    /** Under `all`: cancel the other branches as soon as one fails, and fail the join at once. */
    failFast: z.boolean().optional(),
    prompt: z.string().optional(),
  })
  .strict();
export type JoinInput = z.infer<typeof joinInputSchema>;

/** What cancelling the parent does to its branches still running: `cancel` them (the default) or `abandon` them to go on alone. */
export const onCancelSchema = z.enum(["cancel", "abandon"]);

/**
 * The fan-out keys an edge may carry, in either graph style, instead of `role`: named static branches
 * (`parallel:`) or one branch per item of an array (`foreach:` a JSONata expression over the reply,
 * `as:` the item's name in the branch's templates, `branch:` the target), then `join:`.
 */
export const fanOutInputFields = {
  parallel: z.record(z.string(), branchTargetSchema).optional(),
  foreach: z.string().min(1).optional(),
  as: z.string().min(1).optional(),
  branch: branchTargetSchema.optional(),
  maxConcurrent: z.number().int().positive().optional(),
  onCancel: onCancelSchema.optional(),
  join: joinInputSchema.optional(),
};

/**
 * A fan-out in the stored, normalised workflow (on its Transition, whose `role` and `prompt` are the
 * join's): exactly one of `parallel` and `foreach` is set.
 */
export const fanOutSchema = z
  .object({
    parallel: z.record(z.string(), branchTargetSchema).nullable(),
    /**
     * `parallel`'s keys in the order they were written: the stored workflow is canonical JSON, whose
     * maps come back sorted by key, and branches run, join and are shown in declaration order.
     */
    keys: z.array(z.string()).optional(),
    foreach: z.object({ expression: z.string(), as: z.string(), branch: branchTargetSchema }).strict().nullable(),
    policy: joinPolicySchema,
    failFast: z.boolean(),
    maxConcurrent: z.number().int().positive().nullable(),
    onCancel: onCancelSchema,
  })
  .strict();
export type FanOut = z.infer<typeof fanOutSchema>;
