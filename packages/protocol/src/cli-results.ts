import { z } from "zod";
import { addressSchema } from "./address.ts";
import { threadRecordSchema, threadStatusSchema } from "./thread-record.ts";
import { usageSchema } from "./usage.ts";

/** `--json` error document, printed on stderr. */
export const errorResultSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), data: z.record(z.string(), z.unknown()) }),
});
export type ErrorResult = z.infer<typeof errorResultSchema>;

/** One problem in a workflow file, located. */
export const workflowProblemSchema = z.object({
  file: z.string(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  path: z.string(),
  message: z.string(),
});
export type WorkflowProblem = z.infer<typeof workflowProblemSchema>;

export const workflowAddResultSchema = z.object({ name: z.string(), hash: addressSchema, changed: z.boolean() });
export type WorkflowAddResult = z.infer<typeof workflowAddResultSchema>;

export const workflowValidateResultSchema = z.object({
  file: z.string(),
  valid: z.boolean(),
  name: z.string().nullable(),
  hash: addressSchema.nullable(),
  errors: z.array(workflowProblemSchema),
  warnings: z.array(workflowProblemSchema),
});
export type WorkflowValidateResult = z.infer<typeof workflowValidateResultSchema>;

export const workflowListResultSchema = z.object({
  workflows: z.array(
    z.object({
      name: z.string(),
      hash: addressSchema.nullable(),
      source: z.enum(["registry", "project"]),
      file: z.string().nullable(),
      description: z.string().nullable(),
    }),
  ),
});
export type WorkflowListResult = z.infer<typeof workflowListResultSchema>;

export const startResultSchema = z.object({ thread: z.string(), workflow: addressSchema, head: addressSchema });
export type StartResult = z.infer<typeof startResultSchema>;

/** One step as reported by `step`, `run`, `log`. */
export const stepSummarySchema = z.object({
  number: z.number().int().positive(),
  address: addressSchema,
  role: z.string(),
  agent: z.string(),
  status: z.string().nullable(),
  output: z.record(z.string(), z.unknown()),
  startedAt: z.string(),
  completedAt: z.string(),
  durationMs: z.number(),
  usage: usageSchema.nullable(),
});
export type StepSummary = z.infer<typeof stepSummarySchema>;

export const stepResultSchema = z.object({
  thread: z.string(),
  head: addressSchema,
  status: threadStatusSchema,
  next: z.string().nullable(),
  steps: z.array(stepSummarySchema),
});
export type StepResult = z.infer<typeof stepResultSchema>;

export const forkResultSchema = z.object({ thread: z.string(), forkedFrom: addressSchema, head: addressSchema });
export type ForkResult = z.infer<typeof forkResultSchema>;

export const listedThreadSchema = threadRecordSchema.extend({
  status: z.enum(["active", "suspended", "ended", "cancelled", "corrupt"]),
});
export type ListedThread = z.infer<typeof listedThreadSchema>;

export const listResultSchema = z.object({
  threads: z.array(listedThreadSchema),
  total: z.number().int().nonnegative(),
  limit: z.number().int().nullable(),
  offset: z.number().int().nonnegative(),
});
export type ListResult = z.infer<typeof listResultSchema>;

export const logResultSchema = z.object({
  thread: z.string(),
  steps: z.array(stepSummarySchema),
  /** What agent runs that did not become a step used (the thread record's `failedUsage`); absent when none failed. */
  failedUsage: usageSchema.optional(),
});
export type LogResult = z.infer<typeof logResultSchema>;

export const initResultSchema = z.object({ home: z.string(), created: z.boolean() });
export type InitResult = z.infer<typeof initResultSchema>;

export const workflowShowResultSchema = z.object({
  hash: addressSchema,
  workflow: z.record(z.string(), z.unknown()),
  mermaid: z.string().optional(),
});
export type WorkflowShowResult = z.infer<typeof workflowShowResultSchema>;

/** `uwf show HASH`: the node, and for a step its output fields, body and agent run. */
export const expandedNodeSchema = z.object({
  address: addressSchema,
  kind: z.string().nullable(),
  node: z.unknown(),
  output: z.record(z.string(), z.unknown()).optional(),
  body: z.string().optional(),
  run: z.unknown().optional(),
});
export type ExpandedNode = z.infer<typeof expandedNodeSchema>;

/** `uwf show --prompt | --reply`: the text node's address and its text. */
export const showTextResultSchema = z.object({ address: addressSchema, text: z.string() });
export type ShowTextResult = z.infer<typeof showTextResultSchema>;

export const readResultSchema = z.object({
  thread: z.string(),
  totalSteps: z.number().int().nonnegative(),
  shownSteps: z.number().int().nonnegative(),
  markdown: z.string(),
});
export type ReadResult = z.infer<typeof readResultSchema>;

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

export const configValueResultSchema = z.object({ key: z.string(), value: z.unknown() });
export type ConfigValueResult = z.infer<typeof configValueResultSchema>;

export const configListResultSchema = z.object({
  entries: z.array(z.object({ key: z.string(), value: z.unknown() })),
});
export type ConfigListResult = z.infer<typeof configListResultSchema>;
