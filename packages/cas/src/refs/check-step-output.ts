import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { ReadStepOutputQuery } from "./step-output-log.ts";

/** The default and largest number of chunks one `readStepOutput` returns. */
export const STEP_OUTPUT_READ_LIMIT = 1_000;

/** The query with its limit filled in; throws on a step, seq or limit that is no whole number of 0 or more. */
export function checkStepOutputQuery(query: ReadStepOutputQuery): ReadStepOutputQuery & { limit: number } {
  const numbers: [string, number | undefined][] = [
    ["step", query.step],
    ["after.step", query.after?.step],
    ["after.seq", query.after?.seq],
    ["limit", query.limit],
  ];
  for (const [field, value] of numbers) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      throw new InvalidRecordError("step output query", [`${field}: expected a non-negative integer, got ${value}`]);
    }
  }
  return { ...query, limit: Math.min(query.limit ?? STEP_OUTPUT_READ_LIMIT, STEP_OUTPUT_READ_LIMIT) };
}
