import type { Address, ThreadRecord, WorkflowEntry } from "@uwf/protocol";
import { hashBytes } from "./hash-node.ts";
import { InvalidRecordError } from "./invalid-record-error.ts";
import {
  isWellFormedThreadRecord,
  isWellFormedThreadUpdate,
  isWellFormedWorkflowEntry,
} from "./is-well-formed-record.ts";
import { parseAddress } from "./parse-address.ts";
import type {
  AcquireLeaseOptions,
  ChainIndex,
  ChainIndexStep,
  ChainLink,
  LeaseAgent,
  ListThreadsQuery,
  ThreadUpdate,
} from "./store.ts";

/*
 * Validation every ref store backend applies before persisting, so backends cannot drift
 * apart on what they accept: the mutable state is the one place a bad write is not
 * self-evidently detectable later (objects are re-hashed; records are not).
 *
 * The records uwf writes pass the cheap checks of is-well-formed-record.ts; only anything else
 * loads the protocol's zod schemas, which decide and explain. A step thus never builds them.
 */

interface Issue {
  path: PropertyKey[];
  message: string;
}
interface SafeParser<Value> {
  safeParse(input: unknown): { success: true; data: Value } | { success: false; error: { issues: Issue[] } };
}

async function check<Value>(
  kind: string,
  input: unknown,
  isWellFormed: (input: unknown) => input is Value,
  schemaOf: (schemas: typeof import("./ref-record-schemas.ts").refRecordSchemas) => SafeParser<Value>,
): Promise<Value> {
  if (isWellFormed(input)) return structuredClone(input);
  const result = schemaOf((await import("./ref-record-schemas.ts")).refRecordSchemas).safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`,
  );
  throw new InvalidRecordError(kind, problems);
}

export function checkThreadRecord(record: ThreadRecord): Promise<ThreadRecord> {
  return check("thread record", record, isWellFormedThreadRecord, (schemas) => schemas.threadRecord);
}

export function checkThreadUpdate(update: ThreadUpdate): Promise<ThreadUpdate> {
  return check("thread update", update, isWellFormedThreadUpdate, (schemas) => schemas.threadUpdate);
}

export function checkWorkflowEntry(entry: WorkflowEntry): Promise<WorkflowEntry> {
  return check("workflow entry", entry, isWellFormedWorkflowEntry, (schemas) => schemas.workflowEntry);
}

export function checkExpectedHead(head: string): Address {
  return parseAddress(head);
}

export function checkLeaseOptions(options: AcquireLeaseOptions): void {
  checkTtl(options.ttlMs);
  if (!Number.isInteger(options.pid)) throw new InvalidRecordError("lease request", ["pid: expected an integer"]);
  if (Number.isNaN(options.now.getTime())) throw new InvalidRecordError("lease request", ["now: invalid date"]);
  const { processStart, takeOver } = options;
  if (processStart !== undefined && processStart !== null && typeof processStart !== "string") {
    throw new InvalidRecordError("lease request", ["processStart: expected a string or null"]);
  }
  if (takeOver !== undefined && typeof takeOver !== "string") {
    throw new InvalidRecordError("lease request", ["takeOver: expected a lease token"]);
  }
}

/** An agent recorded in a lease: a positive whole process group id, and a start that is a string or null. */
export function checkLeaseAgent(agent: LeaseAgent | null): LeaseAgent | null {
  if (agent === null) return null;
  if (typeof agent !== "object" || !Number.isSafeInteger(agent.group) || agent.group <= 0) {
    throw new InvalidRecordError("lease agent", ["group: expected a positive integer"]);
  }
  if (agent.start !== null && typeof agent.start !== "string") {
    throw new InvalidRecordError("lease agent", ["start: expected a string or null"]);
  }
  return { group: agent.group, start: agent.start };
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

/** The query with its start address in canonical form; throws on a bad limit, offset, start or parent. */
export function checkListQuery(query: ListThreadsQuery): ListThreadsQuery {
  for (const field of ["limit", "offset"] as const) {
    const value = query[field];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      throw new InvalidRecordError("thread list query", [`${field}: expected a non-negative integer, got ${value}`]);
    }
  }
  if (query.forksOf !== undefined && typeof query.forksOf?.thread !== "string") {
    throw new InvalidRecordError("thread list query", ["forksOf.thread: expected a thread id"]);
  }
  return query.start === undefined ? query : { ...query, start: parseAddress(query.start) };
}

/**
 * Chain links with their addresses in canonical form. Bytes that do not hash to their address are
 * refused, so the cache never holds a link its node could not have produced.
 */
export function checkChainLinks(links: readonly ChainLink[]): ChainLink[] {
  return links.map((link, index) => {
    if (typeof link !== "object" || link === null || !(link.bytes instanceof Uint8Array)) {
      throw new InvalidRecordError("chain link", [`${index}: expected { address, prev, bytes: Uint8Array }`]);
    }
    const checked = { address: parseAddress(link.address), prev: parseAddress(link.prev), bytes: link.bytes };
    const actual = hashBytes(checked.bytes);
    if (actual !== checked.address) {
      throw new InvalidRecordError("chain link", [`${index}: its bytes hash to ${actual}, not ${checked.address}`]);
    }
    return checked;
  });
}

/** A chain index with its addresses in canonical form and every role a non-empty string. */
export function checkChainIndex(index: ChainIndex): ChainIndex {
  if (typeof index !== "object" || index === null) {
    throw new InvalidRecordError("chain index", ["expected { start, steps: [{ address, role }] }"]);
  }
  return { start: parseAddress(index.start), steps: checkChainIndexSteps(index.steps) };
}

export function checkChainIndexSteps(steps: readonly ChainIndexStep[]): ChainIndexStep[] {
  if (!Array.isArray(steps)) throw new InvalidRecordError("chain index", ["steps: expected a list"]);
  return steps.map((step, position) => {
    if (typeof step !== "object" || step === null || typeof step.role !== "string" || step.role === "") {
      throw new InvalidRecordError("chain index", [
        `steps.${position}: expected { address, role: a non-empty string }`,
      ]);
    }
    return { address: parseAddress(step.address), role: step.role };
  });
}

/** Where a chain index ends: its last step, or its start node when it has none. */
export function headOfChainIndex(index: ChainIndex): Address {
  return index.steps.at(-1)?.address ?? index.start;
}
