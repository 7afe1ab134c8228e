import { z } from "zod";
import { addressSchema } from "../ids/address.ts";
import { THREAD_ID_PATTERN } from "../ids/thread-id-pattern.ts";

/** An evaluation report's id: a ULID, as a thread's is, so id order is time order. */
export const evalReportIdSchema = z.string().regex(THREAD_ID_PATTERN, "expected a 26-character report id");

/**
 * The ref store's one mutable entry for an evaluation report: its id, the `eval-report/1` node that holds
 * the report (immutable, in the object store; gc keeps it and every thread head it names for as long as
 * the entry exists), the name of the suite or a label of the selection it scored (`uwf eval list` filters
 * by it), and when it was made.
 */
export const evalReportEntrySchema = z
  .object({
    id: evalReportIdSchema,
    address: addressSchema,
    name: z.string(),
    createdAt: z.iso.datetime(),
  })
  .strict();
export type EvalReportEntry = z.infer<typeof evalReportEntrySchema>;
