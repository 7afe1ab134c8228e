import { z } from "zod";

/** `--json` error document, printed on stderr. */
export const errorResultSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), data: z.record(z.string(), z.unknown()) }),
});
export type ErrorResult = z.infer<typeof errorResultSchema>;
