import { InvalidRecordError } from "../errors/invalid-record-error.ts";

/** Throws unless `value` is an ISO 8601 time (what `updatedSince` and `deletedSince` compare with). */
export function checkSince(value: unknown, what: string, field: string): string {
  if (typeof value !== "string" || Number.isNaN(Date.parse(value))) {
    throw new InvalidRecordError(what, [`${field}: expected an ISO 8601 time, got ${String(value)}`]);
  }
  return value;
}
