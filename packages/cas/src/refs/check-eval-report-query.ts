import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { ListEvalReportsQuery } from "./eval-report-refs.ts";

/** The query as given; throws on a limit or offset that is not a non-negative integer, or a name that is no string. */
export function checkEvalReportQuery(query: ListEvalReportsQuery): ListEvalReportsQuery {
  const problems: string[] = [];
  for (const field of ["limit", "offset"] as const) {
    const value = query[field];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      problems.push(`${field}: expected a non-negative integer, got ${value}`);
    }
  }
  if (query.name !== undefined && typeof query.name !== "string") problems.push("name: expected a string");
  if (problems.length > 0) throw new InvalidRecordError("eval report list query", problems);
  return query;
}
