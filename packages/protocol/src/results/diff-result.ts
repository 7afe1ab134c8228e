import { z } from "zod";
import { usageSchema } from "../budget/usage.ts";
import { addressSchema } from "../ids/address.ts";
import { threadStatusSchema } from "../threads/thread-record.ts";

/** One side of a diff: the thread it was named by (null for a node address) and the head compared. */
export const diffSideSchema = z.object({
  thread: z.string().nullable(),
  head: addressSchema,
  start: addressSchema,
});
export type DiffSide = z.infer<typeof diffSideSchema>;

/** A step on one side of a compared pair. */
export const diffStepSideSchema = z.object({
  address: addressSchema,
  role: z.string(),
  agent: z.string(),
  status: z.string().nullable(),
  durationMs: z.number(),
  usage: usageSchema.nullable(),
});
export type DiffStepSide = z.infer<typeof diffStepSideSchema>;

/**
 * An output field that differs between the two sides of a step. A field only one side reported is
 * `added` (only on the right) or `removed` (only on the left), and the absent side's key is left out.
 */
export const fieldDifferenceSchema = z.object({
  field: z.string(),
  change: z.enum(["changed", "added", "removed"]),
  left: z.unknown().optional(),
  right: z.unknown().optional(),
});
export type FieldDifference = z.infer<typeof fieldDifferenceSchema>;

/** Step `number` on both sides after the last common step; a side that has no such step is null. */
export const diffStepSchema = z.object({
  number: z.number().int().positive(),
  left: diffStepSideSchema.nullable(),
  right: diffStepSideSchema.nullable(),
  /** Output fields that differ: the left side's by name (stored outputs keep keys sorted), then those only the right reported. */
  fields: z.array(fieldDifferenceSchema),
  /** With `--bodies`: a unified diff of the two bodies (empty when they are the same); absent otherwise. */
  bodyDiff: z.string().optional(),
});
export type DiffStep = z.infer<typeof diffStepSchema>;

/** A side's whole chain, common steps included. */
export const diffTotalsSchema = z.object({
  steps: z.number().int().nonnegative(),
  durationMs: z.number().nonnegative(),
  usage: usageSchema,
  /** The thread's status when the side names a thread; null for a node address. */
  status: threadStatusSchema.nullable(),
  /** The `$status` of the side's last step (null when it has no steps or reported none). */
  lastStatus: z.string().nullable(),
});
export type DiffTotals = z.infer<typeof diffTotalsSchema>;

/** A workflow version: its name and address. */
export const workflowVersionSchema = z.object({ name: z.string(), address: addressSchema });
export type WorkflowVersion = z.infer<typeof workflowVersionSchema>;

/**
 * A change of workflow version in a thread's lineage: the thread forked onto another version (`fork
 * --workflow`) at step `step` of its parent's chain, so its steps after `step` ran under `to`.
 */
export const workflowSwitchSchema = z.object({
  thread: z.string(),
  step: z.number().int().nonnegative().nullable(),
  from: addressSchema,
  to: workflowVersionSchema,
});
export type WorkflowSwitch = z.infer<typeof workflowSwitchSchema>;

/**
 * Two threads that run under different workflow versions: each side's, and the switches of version in
 * each side's lineage, oldest first (where one side moved onto the other version).
 */
export const workflowChangeSchema = z.object({
  left: workflowVersionSchema,
  right: workflowVersionSchema,
  switches: z.object({ left: z.array(workflowSwitchSchema), right: z.array(workflowSwitchSchema) }),
});
export type WorkflowChange = z.infer<typeof workflowChangeSchema>;

/** `uwf diff A B --json`. */
export const diffResultSchema = z.object({
  left: diffSideSchema,
  right: diffSideSchema,
  /** Whether both chains begin at the same start node (same workflow, task, cwd and inputs). */
  sameStart: z.boolean(),
  /** How many leading steps the two chains share (0 when none or when the starts differ). */
  commonSteps: z.number().int().nonnegative(),
  /** The last shared step's address; the shared start node when they share only that; null when nothing is shared. */
  commonAddress: addressSchema.nullable(),
  /** Every step after the common ones, paired by number. */
  steps: z.array(diffStepSchema),
  totals: z.object({ left: diffTotalsSchema, right: diffTotalsSchema }),
  /** Both sides name threads that run under different workflow addresses; absent otherwise. */
  workflowChange: workflowChangeSchema.optional(),
});
export type DiffResult = z.infer<typeof diffResultSchema>;
