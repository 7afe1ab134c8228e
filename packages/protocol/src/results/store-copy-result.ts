import { z } from "zod";

const count = z.number().int().nonnegative();

/**
 * Something `uwf store copy` could not copy as it is: a corrupt source object, a thread whose chains parted
 * (or an eval report id the target holds for another report), or what the target lacks at the end.
 */
export const storeCopyProblemSchema = z.object({
  kind: z.enum(["corrupt", "diverged", "missing"]),
  /** The object's address, or the thread's or eval report's id. */
  subject: z.string(),
  message: z.string(),
});
export type StoreCopyProblem = z.infer<typeof storeCopyProblemSchema>;

/** What a copy of one store into another did; `uwf store copy` adds where from and to. */
export const storeCopyReportSchema = z.object({
  /** Objects read from the source, and put into the target (a node already there is left as it is). */
  objects: z.object({ read: count, written: count }),
  workflows: z.object({ copied: count, unchanged: count, kept: count }),
  /** Schedules: `kept` when the target's was changed later (a pause, a fire there). */
  schedules: z.object({ copied: count, unchanged: count, kept: count }),
  /** `kept`: the target's thread is further along the same chain, or was changed later. */
  threads: z.object({ created: count, updated: count, unchanged: count, kept: count }),
  chainIndexes: count,
  /** Evaluation reports' entries: `unchanged` when the target has the same entry (one it names otherwise is a problem). */
  evalReports: z.object({ copied: count, unchanged: count }),
  /** Threads whose step lease was held during the copy: a step may since have moved their head; copy again. */
  busy: z.array(z.string()),
  problems: z.array(storeCopyProblemSchema),
});
export type StoreCopyReport = z.infer<typeof storeCopyReportSchema>;

export const storeCopyResultSchema = storeCopyReportSchema.extend({
  /** The source and the target: `file` (the home's embedded store) or a URL, its password masked. */
  from: z.string(),
  to: z.string(),
  /** True when every object and record was copied and found in the target. */
  ok: z.boolean(),
});
export type StoreCopyResult = z.infer<typeof storeCopyResultSchema>;
