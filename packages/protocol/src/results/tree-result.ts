import { z } from "zod";
import { budgetReportSchema } from "../budget/budget.ts";
import { usageSchema } from "../budget/usage.ts";
import { addressSchema } from "../ids/address.ts";
import {
  branchOriginSchema,
  forkOriginSchema,
  threadIdSchema,
  threadOutcomeSchema,
  threadStatusSchema,
} from "../threads/thread-record.ts";

/**
 * How a thread got its place in a family tree: `original`, a root that is no fork; `lineage`, under the
 * parent its record names; `address`, a fork recorded with its address only (by an older uwf), under the
 * oldest thread whose chain holds that address; `unplaced`, a fork whose parent cannot be found, listed as
 * a root with a note.
 */
export const treePlacementSchema = z.enum(["original", "lineage", "address", "unplaced"]);
export type TreePlacement = z.infer<typeof treePlacementSchema>;

/** One thread of a family, with the forks made from it. */
export const familyTreeNodeSchema = z.object({
  thread: threadIdSchema,
  status: threadStatusSchema,
  /** How an ended thread ended (absent on threads ended before outcomes were kept). */
  outcome: threadOutcomeSchema.optional(),
  stepCount: z.number().int().nonnegative(),
  usage: usageSchema,
  /** The thread's budget and what it spent (its own, from its fork point), for a thread with one. */
  budget: budgetReportSchema.optional(),
  head: addressSchema,
  /** The thread record's lineage, as recorded. */
  forkedFrom: forkOriginSchema.nullable(),
  /** The step of the parent's chain this thread branched at (0: the start node); null for a root. */
  branchedAt: z.number().int().nonnegative().nullable(),
  /**
   * Whether this fork replaced the reply of the step it branched at (`fork --output`): its lineage's
   * `replaced`, or for a fork recorded by address only, whether its own chain lacks that address.
   */
  replaced: z.boolean(),
  placement: treePlacementSchema,
  /** Why an `unplaced` fork is a root; null otherwise. */
  note: z.string().nullable(),
  /**
   * How this thread came from its parent: `fork` (a fork, or a root) or `branch` (a child thread a fan-out
   * of the parent's step `branchedAt` created; see `branchOf`). Absent in output of uwf before branches: a fork.
   */
  kind: z.enum(["fork", "branch"]).optional(),
  /** A branch's lineage, as its record holds it (parent, step, key). Absent on every other thread. */
  branchOf: branchOriginSchema.optional(),
  /**
   * Set on a fork made onto another workflow version (`fork --workflow`, its lineage's `workflow` names the
   * one it left): the workflow it runs under, by name and address. Absent on every other thread.
   */
  forkedOnto: z.object({ name: z.string(), address: addressSchema }).optional(),
  /** Forks and branches of this thread, by the step they branched at, then oldest first (branches in their fan-out's order). */
  get children(): z.ZodArray<typeof familyTreeNodeSchema> {
    return z.array(familyTreeNodeSchema);
  },
});
export type FamilyTreeNode = z.infer<typeof familyTreeNodeSchema>;

/**
 * `uwf tree THREAD`: the family of the thread, from its root original. `roots[0]` holds the thread; any
 * other root is a fork of the same start node whose parent cannot be found.
 */
export const treeResultSchema = z.object({
  /** The thread asked about (full id). */
  thread: threadIdSchema,
  workflow: z.string(),
  roots: z.array(familyTreeNodeSchema),
  /** With `--mermaid`: the tree as a Mermaid flowchart. */
  mermaid: z.string().optional(),
});
export type TreeResult = z.infer<typeof treeResultSchema>;
