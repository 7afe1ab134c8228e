import { z } from "zod";
import { usageSchema } from "../budget/usage.ts";
import { addressSchema } from "../ids/address.ts";
import { threadIdSchema, threadOutcomeSchema, threadStatusSchema } from "../threads/thread-record.ts";
import { branchErrorSchema } from "./branch-nodes.ts";

/** One branch as `show`, `log`, `tree` and the web UI list it. */
export const branchViewSchema = z.object({
  key: z.string(),
  thread: threadIdSchema,
  status: threadStatusSchema,
  /** The role a `role:` branch runs; null for a `workflow:` branch. */
  role: z.string().nullable(),
  /** The workflow a `workflow:` branch runs; null for a `role:` branch. */
  workflow: z.string().nullable(),
  outcome: threadOutcomeSchema.nullable(),
  /** Its failure, or why it stopped; null for a branch that ended or is still going. */
  error: branchErrorSchema.nullable(),
  /** Steps of its own (a `role:` branch's shared history not counted). */
  steps: z.number().int().nonnegative(),
  usage: usageSchema,
  head: addressSchema,
});
export type BranchView = z.infer<typeof branchViewSchema>;

/** A fan-out of a thread and its branches: pending while the parent waits, joined once its join step is recorded. */
export const branchGroupSchema = z.object({
  /** The parent's step number that fanned out, and its address. */
  step: z.number().int().positive(),
  address: addressSchema,
  kind: z.enum(["parallel", "foreach"]),
  join: z.string(),
  /** The policy as written: `all`, `all-settled`, `any`, `quorum:N`. */
  policy: z.string(),
  /** The join step's number once recorded; null while the parent waits (or failed or was cancelled waiting). */
  joinedAt: z.number().int().positive().nullable(),
  branches: z.array(branchViewSchema),
});
export type BranchGroup = z.infer<typeof branchGroupSchema>;
