import type { EvalReportEntry, ThreadRecord, WorkflowEntry } from "@uwf/protocol";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import {
  isWellFormedEvalReportEntry,
  isWellFormedThreadRecord,
  isWellFormedThreadUpdate,
  isWellFormedWorkflowEntry,
} from "./is-well-formed-record.ts";
import type { refRecordSchemas } from "./ref-record-schemas.ts";
import type { ThreadUpdate } from "./thread-refs.ts";

/*
 * The records every ref store backend checks before persisting them, so backends cannot drift
 * apart on what they accept: the mutable state is the one place a bad write is not
 * self-evidently detectable later (objects are re-hashed; records are not).
 *
 * The records uwf writes pass the cheap checks of is-well-formed-record.ts; only anything else
 * loads the protocol's zod schemas, which decide and explain. A step thus never builds them.
 */

type RefRecordKind = keyof typeof refRecordSchemas;

interface RecordCheck<Value> {
  label: string;
  isWellFormed: (input: unknown) => input is Value;
}

const RECORD_CHECKS: { [Kind in RefRecordKind]: RecordCheck<RecordOf<Kind>> } = {
  threadRecord: { label: "thread record", isWellFormed: isWellFormedThreadRecord },
  threadUpdate: { label: "thread update", isWellFormed: isWellFormedThreadUpdate },
  workflowEntry: { label: "workflow entry", isWellFormed: isWellFormedWorkflowEntry },
  evalReportEntry: { label: "eval report entry", isWellFormed: isWellFormedEvalReportEntry },
};

interface RecordTypes {
  threadRecord: ThreadRecord;
  threadUpdate: ThreadUpdate;
  workflowEntry: WorkflowEntry;
  evalReportEntry: EvalReportEntry;
}
type RecordOf<Kind extends RefRecordKind> = RecordTypes[Kind];

/** A copy of the record, as the schema of its kind accepts it, or InvalidRecordError listing every problem. */
export async function checkRecord<Kind extends RefRecordKind>(
  kind: Kind,
  input: RecordOf<Kind>,
): Promise<RecordOf<Kind>> {
  const { label, isWellFormed } = RECORD_CHECKS[kind];
  if (isWellFormed(input)) return structuredClone(input);
  const { refRecordSchemas } = await import("./ref-record-schemas.ts");
  const result = refRecordSchemas[kind].safeParse(input);
  if (result.success) return result.data as RecordOf<Kind>;
  const problems = result.error.issues.map(
    (issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`,
  );
  throw new InvalidRecordError(label, problems);
}
