import { z } from "zod";

/** Token and cost accounting of one agent run, and summed over a thread. */
export const usageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative().default(0),
  cacheWriteTokens: z.number().int().nonnegative().default(0),
  costUsd: z.number().nonnegative(),
});
export type Usage = z.infer<typeof usageSchema>;
