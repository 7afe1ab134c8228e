import type { BranchOrigin, ForkOrigin, ThreadRecord } from "@uwf/protocol";
import { OPTIONAL_RECORD_FIELDS } from "./optional-record-fields.ts";
import type { ThreadUpdate } from "./thread-refs.ts";

/**
 * Thread record fields and their SQL columns, in table order; `forkedFrom` also fills FORK_COLUMNS, and
 * `branchOf` BRANCH_COLUMNS.
 */
const COLUMN_OF = {
  id: "id",
  workflow: "workflow",
  workflowAddress: "workflow_address",
  start: "start",
  head: "head",
  status: "status",
  next: "next",
  reason: "reason",
  stepCount: "step_count",
  createdAt: "created_at",
  updatedAt: "updated_at",
  forkedFrom: "forked_from",
  usage: "usage",
  failedUsage: "failed_usage",
  recoveredFrom: "recovered_from",
  budget: "budget",
  queued: "queued",
  failure: "failure",
  branchOf: "branch_of",
  outcome: "outcome",
  scheduledBy: "scheduled_by",
  exploredBy: "explored_by",
  deadline: "deadline",
} as const satisfies Record<keyof ThreadRecord, string>;

/**
 * The rest of a fork's origin beside its address (`forked_from`, which older schemas had alone): NULL on
 * an original, and on a fork recorded before these columns existed, which then reads with a null thread,
 * step and `replaced`. `forked_from_replaced` is 0 or 1. `forked_from_workflow` (ref schema 17) is the
 * workflow a fork onto another version left; NULL on every other fork, which then reads without it.
 */
const FORK_COLUMNS = [
  "forked_from_thread",
  "forked_from_step",
  "forked_from_replaced",
  "forked_from_workflow",
] as const;

/**
 * A branch's parent beside its whole lineage (`branch_of`, JSON), indexed, so that a parent's branches are
 * found without reading every record: NULL on every thread that is not a branch.
 */
const BRANCH_COLUMNS = ["branch_of_thread"] as const;

type Field = keyof typeof COLUMN_OF;
const FIELDS = Object.keys(COLUMN_OF) as Field[];
/** Fields a record may leave out: NULL in their columns. */
const OPTIONAL_FIELDS: ReadonlySet<string> = OPTIONAL_RECORD_FIELDS;

const ALL_COLUMNS = [...FIELDS.map((field) => COLUMN_OF[field]), ...FORK_COLUMNS, ...BRANCH_COLUMNS];
export const THREAD_COLUMNS = ALL_COLUMNS.join(", ");
export const THREAD_PLACEHOLDERS = ALL_COLUMNS.map(() => "?").join(", ");
/** The same for PostgreSQL: `$1, $2, ...`. */
export const THREAD_NUMBERED_PLACEHOLDERS = ALL_COLUMNS.map((_, index) => `$${index + 1}`).join(", ");

type SqlValue = string | number | null;
export type ThreadRow = { [F in Field as (typeof COLUMN_OF)[F]]: SqlValue } & {
  [C in (typeof FORK_COLUMNS)[number] | (typeof BRANCH_COLUMNS)[number]]: SqlValue;
};

/**
 * The record's values in THREAD_COLUMNS order; usage, failedUsage, budget, failure, branchOf, outcome and
 * scheduledBy (and exploredBy) are stored as JSON text, queued as 0 or 1.
 */
export function threadToRowValues(record: ThreadRecord): SqlValue[] {
  return [
    ...FIELDS.map((field) => toSql(field, record[field])),
    ...forkDetailsToSql(record.forkedFrom),
    ...branchDetailsToSql(record.branchOf),
  ];
}

export function threadFromRow(row: ThreadRow): ThreadRecord {
  const record: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = row[COLUMN_OF[field]];
    // An optional field is absent from the record, not null, when its column is empty.
    if (OPTIONAL_FIELDS.has(field) && value === null) continue;
    record[field] = isJsonField(field) ? JSON.parse(String(value)) : field === "queued" ? value === 1 : value;
  }
  record.forkedFrom = forkOriginFromRow(row);
  return record as ThreadRecord;
}

/**
 * `column = ?` pairs for the fields an update sets (`placeholder` numbers them for PostgreSQL: it
 * is given each value's 1-based position). Column names come from the fixed map above, never from
 * the caller, so an update cannot inject SQL.
 */
export function updateAssignments(
  update: ThreadUpdate,
  placeholder: (position: number) => string = () => "?",
): { assignments: string[]; values: SqlValue[] } {
  const assignments: string[] = [];
  const values: SqlValue[] = [];
  // A deadline belongs to the status it was set with: a new status without one removes it.
  const withDeadline =
    update.status !== undefined && update.deadline === undefined ? { ...update, deadline: null } : update;
  for (const field of FIELDS) {
    if (!Object.hasOwn(withDeadline, field)) continue;
    const value = (withDeadline as Record<string, unknown>)[field];
    if (value === undefined) continue;
    values.push(toSql(field, value));
    assignments.push(`${COLUMN_OF[field]} = ${placeholder(values.length)}`);
    if (field === "forkedFrom") {
      for (const [index, detail] of forkDetailsToSql(value as ForkOrigin | null).entries()) {
        values.push(detail);
        assignments.push(`${FORK_COLUMNS[index]} = ${placeholder(values.length)}`);
      }
    }
    if (field === "branchOf") {
      for (const [index, detail] of branchDetailsToSql(value as BranchOrigin).entries()) {
        values.push(detail);
        assignments.push(`${BRANCH_COLUMNS[index]} = ${placeholder(values.length)}`);
      }
    }
  }
  return { assignments, values };
}

function isJsonField(field: Field): boolean {
  return (
    field === "usage" ||
    field === "failedUsage" ||
    field === "budget" ||
    field === "failure" ||
    field === "branchOf" ||
    field === "outcome" ||
    field === "scheduledBy" ||
    field === "exploredBy"
  );
}

function toSql(field: Field, value: unknown): SqlValue {
  if (isJsonField(field)) return value === undefined || value === null ? null : JSON.stringify(value);
  if (field === "forkedFrom") return (value as ForkOrigin | null)?.address ?? null;
  if (field === "queued") return value === undefined ? null : Number(value);
  return (value ?? null) as SqlValue;
}

function forkDetailsToSql(origin: ForkOrigin | null): SqlValue[] {
  if (origin === null) return [null, null, null, null];
  return [
    origin.thread,
    origin.step,
    origin.replaced === null ? null : Number(origin.replaced),
    origin.workflow ?? null,
  ];
}

function branchDetailsToSql(origin: BranchOrigin | undefined): SqlValue[] {
  return [origin?.thread ?? null];
}

function forkOriginFromRow(row: ThreadRow): ForkOrigin | null {
  const address = row.forked_from;
  if (address === null) return null;
  const replaced = row.forked_from_replaced;
  const origin: ForkOrigin = {
    thread: row.forked_from_thread as string | null,
    step: row.forked_from_step as number | null,
    address: address as string,
    replaced: replaced === null ? null : replaced === 1,
  };
  // Absent, not null, on a fork that kept its parent's workflow: the record reads as it was written.
  if (row.forked_from_workflow != null) origin.workflow = row.forked_from_workflow as string;
  return origin;
}
