import { z } from "zod";
import { addressSchema } from "../ids/address.ts";
import { threadStatusSchema } from "../threads/thread-record.ts";

export const casPutResultSchema = z.object({ address: addressSchema });
export const casHasResultSchema = z.object({ address: z.string(), present: z.boolean() });
export const casRefsResultSchema = z.object({ refs: z.array(addressSchema) });
export const casWalkResultSchema = z.object({
  nodes: z.array(z.object({ address: addressSchema, kind: z.string().nullable() })),
});

/**
 * Something `uwf cas verify` found wrong: a stored object that fails its hash, a referenced one that is
 * not there (`referrer` null for a root), a thread's chain index that disagrees with its chain (at
 * `address`), a thread start node no thread record reaches, or a step node that no step continues
 * and no thread record holds: the head of a thread (or of a thread's newer steps) the ref store lost,
 * `steps` long, `unrecorded` of them held by no record; `thread` is the id its agent runs name (null
 * on runs written before they named it). `uwf cas recover` rebuilds both kinds.
 */
export const verifyProblemSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("corrupt"), address: addressSchema, message: z.string() }),
  z.object({
    kind: z.literal("missing"),
    address: addressSchema,
    referrer: addressSchema.nullable(),
    message: z.string(),
  }),
  z.object({ kind: z.literal("chain-index"), address: addressSchema, thread: z.string(), message: z.string() }),
  z.object({ kind: z.literal("unrecorded-thread"), address: addressSchema, message: z.string() }),
  z.object({
    kind: z.literal("unrecorded-head"),
    address: addressSchema,
    thread: z.string().nullable(),
    steps: z.number().int().nonnegative(),
    unrecorded: z.number().int().nonnegative(),
    message: z.string(),
  }),
]);
export type VerifyProblem = z.infer<typeof verifyProblemSchema>;

export const verifyReportSchema = z.object({
  /** True when there are no problems; leftovers alone do not make a store unhealthy. */
  ok: z.boolean(),
  /** Objects read and re-hashed. */
  checked: z.number().int().nonnegative(),
  /** Roots (thread heads, starts, fork points, registry entries, eval reports' nodes) the reachability check started from. */
  roots: z.number().int().nonnegative(),
  problems: z.array(verifyProblemSchema),
  /** Objects no thread record, registry entry or eval report reaches, counted by node kind (`json` for plain JSON). */
  unreachable: z.object({
    total: z.number().int().nonnegative(),
    byKind: z.record(z.string(), z.number().int().nonnegative()),
  }),
  /** Temporary files of interrupted writes, and objects set aside by an interrupted gc: resolved by gc. */
  leftovers: z.array(z.object({ name: z.string(), kind: z.enum(["temporary", "set-aside"]), writtenAt: z.number() })),
  /**
   * Step nodes no step continues and no record holds that are not problems: written by a step that died
   * before moving its thread's head to them, as its lease recorded (`crashed`), made by a thread whose
   * record went on without them (`superseded`: a step killed after writing its nodes, or one that lost its
   * head's compare-and-swap), or by a thread `uwf delete` removed (`deleted`). gc deletes them once older
   * than its grace.
   */
  abandoned: z.array(
    z.object({
      address: addressSchema,
      thread: z.string(),
      reason: z.enum(["crashed", "superseded", "deleted"]),
    }),
  ),
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
      /** The parent thread as recover derived it from the shared chains (null: an original, or not known). */
      forkedFrom: z.string().nullable(),
    }),
  ),
  /**
   * Recorded threads whose head was behind their chain (a ref store restored from an older copy): moved
   * forward to the newer head their own steps reach, `steps` counting the whole chain.
   */
  extended: z.array(
    z.object({ thread: z.string(), from: addressSchema, head: addressSchema, steps: z.number().int().nonnegative() }),
  ),
  registered: z.array(z.object({ name: z.string(), address: addressSchema })),
  /** What no recover can rebuild, because only the lost records held it (see docs/store.md). */
  notRebuilt: z.array(z.string()),
  /** Heads not rebuilt: `in-flight` (a step may still commit it; retry later) or `broken` (a node of its chain is missing or corrupt). */
  skipped: z.array(z.object({ head: addressSchema, reason: z.enum(["in-flight", "broken"]), message: z.string() })),
});
export type CasRecoverResult = z.infer<typeof casRecoverResultSchema>;

export const gcReportSchema = z.object({
  dryRun: z.boolean(),
  /**
   * Unreachable objects last written before this instant are deleted: `now` less the grace period, or
   * earlier while steps are in flight (ISO 8601).
   */
  cutoff: z.string(),
  /** Objects kept because a root reaches them. */
  reachable: z.number().int().nonnegative(),
  /** Unreachable objects kept because they were written since the cutoff. */
  young: z.number().int().nonnegative(),
  /** reachable + young. */
  kept: z.number().int().nonnegative(),
  /** Unreachable objects deleted (or, in a dry run, that would be). */
  deleted: z.array(addressSchema),
  /**
   * Leftovers older than the cutoff, resolved (or that would be): temporary files of interrupted writes
   * deleted, objects set aside by an interrupted gc put back in place or deleted.
   */
  deletedTemporaryFiles: z.array(z.string()),
  /** Threads whose chain index disagreed with their chain and was dropped (or would be). */
  droppedChainIndexes: z.array(z.string()),
  /**
   * Threads whose step lease row a crashed step left (a dead holder, or one past its lifetime, whose
   * intended head is settled or collected) and that gc removed (or would).
   */
  forgottenLeases: z.array(z.string()),
});
export type GcReport = z.infer<typeof gcReportSchema>;
