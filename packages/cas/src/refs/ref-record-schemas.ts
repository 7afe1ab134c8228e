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
    // null removes a failure, an outcome or a deadline
    .extend({
      failure: threadFailureSchema.nullable(),
      outcome: threadOutcomeSchema.nullable(),
      deadline: threadRecordSchema.shape.deadline.unwrap().nullable(),
    })
    .partial()
    .strict(),
  workflowEntry: workflowEntrySchema,
  evalReportEntry: evalReportEntrySchema,
};
