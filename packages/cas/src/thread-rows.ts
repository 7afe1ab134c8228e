import type { ThreadRecord } from "@uwf/protocol";
import type { ThreadUpdate } from "./store.ts";

/** Thread record fields and their SQL columns, in table order. */
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
} as const satisfies Record<keyof ThreadRecord, string>;

type Field = keyof typeof COLUMN_OF;
const FIELDS = Object.keys(COLUMN_OF) as Field[];

export const THREAD_COLUMNS = FIELDS.map((field) => COLUMN_OF[field]).join(", ");
export const THREAD_PLACEHOLDERS = FIELDS.map(() => "?").join(", ");

export type ThreadRow = { [F in Field as (typeof COLUMN_OF)[F]]: string | number | null };
type SqlValue = string | number | null;

/** The record's values in THREAD_COLUMNS order; usage and failedUsage are stored as JSON text. */
export function threadToRowValues(record: ThreadRecord): SqlValue[] {
  return FIELDS.map((field) => toSql(field, record[field]));
}

export function threadFromRow(row: ThreadRow): ThreadRecord {
  const record: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = row[COLUMN_OF[field]];
    // An optional field is absent from the record, not null, when its column is empty.
    if ((field === "recoveredFrom" || field === "failedUsage") && value === null) continue;
    record[field] = isJsonField(field) ? JSON.parse(String(value)) : value;
  }
  return record as ThreadRecord;
}

/**
 * `column = ?` pairs for the fields an update sets. Column names come from the fixed map
 * above, never from the caller, so an update cannot inject SQL.
 */
export function updateAssignments(update: ThreadUpdate): { assignments: string[]; values: SqlValue[] } {
  const assignments: string[] = [];
  const values: SqlValue[] = [];
  for (const field of FIELDS) {
    if (!Object.hasOwn(update, field)) continue;
    const value = (update as Record<string, unknown>)[field];
    if (value === undefined) continue;
    assignments.push(`${COLUMN_OF[field]} = ?`);
    values.push(toSql(field, value));
  }
  return { assignments, values };
}

function isJsonField(field: Field): boolean {
  return field === "usage" || field === "failedUsage";
}

function toSql(field: Field, value: unknown): SqlValue {
  if (isJsonField(field)) return value === undefined || value === null ? null : JSON.stringify(value);
  return (value ?? null) as SqlValue;
}
