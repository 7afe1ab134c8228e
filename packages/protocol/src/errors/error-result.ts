import { z } from "zod";

/** What an error is in JSON: its stable code, its message, and plain data about it. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** `--json` error document, printed on stderr. */
export const errorResultSchema = z.object({ error: errorBodySchema });
export type ErrorResult = z.infer<typeof errorResultSchema>;
