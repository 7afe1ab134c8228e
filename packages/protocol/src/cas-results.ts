import { z } from "zod";
import { addressSchema } from "./address.ts";
import { threadStatusSchema } from "./thread-record.ts";

export const casPutResultSchema = z.object({ address: addressSchema });
export const casHasResultSchema = z.object({ address: z.string(), present: z.boolean() });
export const casRefsResultSchema = z.object({ refs: z.array(addressSchema) });
export const casWalkResultSchema = z.object({
  nodes: z.array(z.object({ address: addressSchema, kind: z.string().nullable() })),
});

export const verifyReportSchema = z.object({
  ok: z.boolean(),
  checked: z.number().int().nonnegative(),
  roots: z.number().int().nonnegative(),
  problems: z.array(
    z.object({
      /** `unrecorded-thread`: a thread start node no thread record reaches (`uwf cas recover` rebuilds its thread). */
      kind: z.enum(["corrupt", "missing", "chain-index", "unrecorded-thread"]),
      address: addressSchema,
      referrer: addressSchema.nullable().optional(),
      /** The thread whose chain index is wrong (kind `chain-index`). */
      thread: z.string().optional(),
      message: z.string(),
    }),
  ),
  /** Objects no thread record or registry entry reaches, counted by node kind (`json` for plain JSON). */
  unreachable: z.object({
    total: z.number().int().nonnegative(),
    byKind: z.record(z.string(), z.number().int().nonnegative()),
  }),
  /** Temporary files of interrupted writes, and objects set aside by an interrupted gc: resolved by gc. */
  leftovers: z.array(z.object({ name: z.string(), kind: z.enum(["temporary", "set-aside"]), writtenAt: z.number() })),
});
export type VerifyReport = z.infer<typeof verifyReportSchema>;

/** `uwf cas recover`: the thread records and registry entries rebuilt from the object store. */
export const casRecoverResultSchema = z.object({
  /** Where a damaged ref store was moved before recovering, or null. */
  setAside: z.string().nullable(),
  /** Objects read. */
  checked: z.number().int().nonnegative(),
  recovered: z.array(
    z.object({
      thread: z.string(),
      workflow: z.string(),
      head: addressSchema,
      steps: z.number().int().nonnegative(),
      status: threadStatusSchema,
    }),
  ),
  registered: z.array(z.object({ name: z.string(), address: addressSchema })),
  /** Heads not rebuilt: `in-flight` (a step may still commit it; retry later) or `broken` (a node of its chain is missing or corrupt). */
  skipped: z.array(z.object({ head: addressSchema, reason: z.enum(["in-flight", "broken"]), message: z.string() })),
});
export type CasRecoverResult = z.infer<typeof casRecoverResultSchema>;

export const gcReportSchema = z.object({
  dryRun: z.boolean(),
  /** Unreachable objects last written before this instant are deleted (ISO 8601). */
  cutoff: z.string(),
  reachable: z.number().int().nonnegative(),
  young: z.number().int().nonnegative(),
  kept: z.number().int().nonnegative(),
  deleted: z.array(addressSchema),
  deletedTemporaryFiles: z.array(z.string()),
  /** Threads whose chain index disagreed with their chain and was dropped (or would be). */
  droppedChainIndexes: z.array(z.string()),
});
export type GcReport = z.infer<typeof gcReportSchema>;
