import { z } from "zod";
import { durationSchema } from "../time/duration.ts";
import { RETRY_TRIGGERS } from "./retry-triggers.ts";

export const retryTriggerSchema = z.enum(RETRY_TRIGGERS);
export type RetryTrigger = z.infer<typeof retryTriggerSchema>;

/**
 * A role's own retry policy (`retries: { max, backoff, on }`): the step is tried again up to `max`
 * times when it fails with one of `on` (default: all three), waiting `backoff` (default 1s) before the
 * first retry and twice as long before each next one. It beats the agent's config and a worker's `--retries`.
 */
export const roleRetriesSchema = z
  .object({
    max: z
      .number()
      .nonnegative("expected 0 retries or more")
      .refine(Number.isInteger, "expected a whole number of retries"),
    backoff: durationSchema.optional(),
    on: z.array(retryTriggerSchema).min(1).optional(),
  })
  .strict();
export type RoleRetries = z.infer<typeof roleRetriesSchema>;

/** A role's agent deadline: a duration (`10m`) or a number of seconds, as agent configs write it. */
export const roleTimeoutSchema = z.union([
  z.number().positive("expected a number of seconds over 0, or a duration such as 10m"),
  durationSchema,
]);
export type RoleTimeout = z.infer<typeof roleTimeoutSchema>;

/**
 * What a role's step does when its agent runs out of time (after its retries): `fail` the thread
 * (the default), or `suspend` it, keeping what the agent wrote, for a person to say how to go on.
 */
export const onTimeoutSchema = z.enum(["fail", "suspend"]);
export type OnTimeout = z.infer<typeof onTimeoutSchema>;
