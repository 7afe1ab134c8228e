import { z } from "zod";
import { usageSchema } from "../budget/usage.ts";
import { addressSchema } from "../ids/address.ts";
import { THREAD_ID_PATTERN } from "../ids/thread-id-pattern.ts";
import { nodeSchema } from "../json/node-schema.ts";
import { threadOutcomeSchema } from "../threads/thread-record.ts";
import { THREAD_STATUSES } from "../threads/thread-statuses.ts";
import { joinPolicySchema, onCancelSchema } from "../workflow/fan-out.ts";

/**
 * One planned branch: its key (the `parallel:` name, or the item's index as a decimal string for
 * `foreach`), what it runs, and its rendered prompt and inputs.
 */
export const plannedBranchSchema = z
  .object({
    key: z.string().min(1),
    /** The role a `role:` branch runs for its one step; null for a `workflow:` branch. */
    role: z.string().nullable(),
    /** The registry name a `workflow:` branch starts; null for a `role:` branch. */
    workflow: z.string().nullable(),
    prompt: z.string(),
    /** A `workflow:` branch's rendered inputs; absent when none. */
    inputs: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type PlannedBranch = z.infer<typeof plannedBranchSchema>;

/**
 * A fan-out as a step routed into it (referenced by the step node's `fanOut`): the branches to create, in
 * declaration or item order, and how they are joined. Immutable, so a fork of the step plans the same
 * branches, and everyone who touches the parent agrees on them.
 */
export const fanOutNodeSchema = nodeSchema("fan-out/1", {
  kind: z.enum(["parallel", "foreach"]),
  /** The index of the fan-out edge among the step role's edges: where the join's prompt template is. */
  edge: z.number().int().nonnegative(),
  join: z
    .object({
      role: z.string(),
      policy: joinPolicySchema,
      failFast: z.boolean(),
    })
    .strict(),
  maxConcurrent: z.number().int().positive().nullable(),
  onCancel: onCancelSchema,
  branches: z.array(plannedBranchSchema),
});
export type FanOutNode = z.infer<typeof fanOutNodeSchema>;

/** The error a branch that did not end brought to its join: its failure, or why it was cancelled. */
export const branchErrorSchema = z.object({ code: z.string(), message: z.string() }).strict();
export type BranchError = z.infer<typeof branchErrorSchema>;

/** A branch's result as its join saw it. */
export const branchResultSchema = z
  .object({
    key: z.string(),
    thread: z.string().regex(THREAD_ID_PATTERN),
    status: z.enum(THREAD_STATUSES),
    /** How the branch ended; null when it did not. */
    outcome: threadOutcomeSchema.nullable(),
    /** The branch's head when joined. */
    head: addressSchema,
    /** The final reply's fields (`output/1`) and body (`text/1`); null when the branch made no step of its own. */
    output: addressSchema.nullable(),
    body: addressSchema.nullable(),
    error: branchErrorSchema.nullable(),
    usage: usageSchema,
  })
  .strict();
export type BranchResult = z.infer<typeof branchResultSchema>;

/** What a join step joined (referenced by its step node's `joined`): the branches in declaration or item order. */
export const joinedBranchesNodeSchema = nodeSchema("branches/1", {
  /** The step that fanned out. */
  fanOut: addressSchema,
  results: z.array(branchResultSchema),
});
export type JoinedBranchesNode = z.infer<typeof joinedBranchesNodeSchema>;
