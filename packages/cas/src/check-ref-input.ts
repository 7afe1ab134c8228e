import {
  type Address,
  type ThreadRecord,
  threadRecordSchema,
  type WorkflowEntry,
  workflowEntrySchema,
} from "@uwf/protocol";
import { InvalidRecordError } from "./invalid-record-error.ts";
import { parseAddress } from "./parse-address.ts";
import type { AcquireLeaseOptions, ListThreadsQuery, ThreadUpdate } from "./store.ts";

/**
 * Validation every ref store backend applies before persisting, so backends cannot drift
 * apart on what they accept: the mutable state is the one place a bad write is not
 * self-evidently detectable later (objects are re-hashed; records are not).
 */
const threadUpdateSchema = threadRecordSchema.omit({ id: true, createdAt: true, start: true }).partial().strict();

interface SafeParser<Value> {
  safeParse(input: unknown): { success: true; data: Value } | { success: false; error: { issues: Issue[] } };
}
interface Issue {
  path: PropertyKey[];
  message: string;
}

function check<Value>(kind: string, schema: SafeParser<Value>, input: unknown): Value {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`,
  );
  throw new InvalidRecordError(kind, problems);
}

export function checkThreadRecord(record: ThreadRecord): ThreadRecord {
  return check("thread record", threadRecordSchema, record);
}

export function checkThreadUpdate(update: ThreadUpdate): ThreadUpdate {
  return check("thread update", threadUpdateSchema, update);
}

export function checkWorkflowEntry(entry: WorkflowEntry): WorkflowEntry {
  return check("workflow entry", workflowEntrySchema, entry);
}

export function checkExpectedHead(head: string): Address {
  return parseAddress(head);
}

export function checkLeaseOptions(options: AcquireLeaseOptions): void {
  checkTtl(options.ttlMs);
  if (!Number.isInteger(options.pid)) throw new InvalidRecordError("lease request", ["pid: expected an integer"]);
  if (Number.isNaN(options.now.getTime())) throw new InvalidRecordError("lease request", ["now: invalid date"]);
}

export function checkTtl(ttlMs: number): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new InvalidRecordError("lease request", [`ttlMs: expected a positive integer, got ${ttlMs}`]);
  }
}

/** Thread ids are upper-case ULIDs; prefixes are matched case-insensitively. */
export function checkPrefixQuery(prefix: string, limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new InvalidRecordError("thread id query", [`limit: expected a non-negative integer, got ${limit}`]);
  }
  return prefix.toUpperCase();
}

export function checkListQuery(query: ListThreadsQuery): void {
  for (const field of ["limit", "offset"] as const) {
    const value = query[field];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      throw new InvalidRecordError("thread list query", [`${field}: expected a non-negative integer, got ${value}`]);
    }
  }
}
