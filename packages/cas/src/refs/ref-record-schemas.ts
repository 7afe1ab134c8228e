import {
  evalReportEntrySchema,
  threadFailureSchema,
  threadOutcomeSchema,
  threadRecordSchema,
  workflowEntrySchema,
} from "@uwf/protocol";

/** The protocol's schemas for what the ref store persists; loaded only for input the cheap checks do not accept. */
export const refRecordSchemas = {
  threadRecord: threadRecordSchema,
  threadUpdate: threadRecordSchema
    .omit({ id: true, createdAt: true, start: true, recoveredFrom: true })
    // null removes a failure or an outcome
    .extend({ failure: threadFailureSchema.nullable(), outcome: threadOutcomeSchema.nullable() })
    .partial()
    .strict(),
  workflowEntry: workflowEntrySchema,
  evalReportEntry: evalReportEntrySchema,
};
