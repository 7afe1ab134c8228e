import { z } from "zod";

/** One thread `uwf trace export` sent: the trace its spans are in, and how many. */
export const traceExportThreadSchema = z.object({
  thread: z.string(),
  /** 32 hex characters; a branch's is its top parent's trace. */
  traceId: z.string(),
  spans: z.number().int().nonnegative(),
});
export type TraceExportThread = z.infer<typeof traceExportThreadSchema>;

/** `uwf trace export --json`: where the spans went, per thread, and how many in all. */
export const traceExportResultSchema = z.object({
  /** The OTLP/HTTP traces URL the spans were posted to. */
  endpoint: z.string(),
  threads: z.array(traceExportThreadSchema),
  spans: z.number().int().nonnegative(),
});
export type TraceExportResult = z.infer<typeof traceExportResultSchema>;
