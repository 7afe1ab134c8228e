import { z } from "zod";
import { parseDuration } from "./parse-duration.ts";

/** A duration as workflows and flags write it (`24h`, `1h30m`, `90s`); kept as written, read with parseDuration. */
export const durationSchema = z
  .string()
  .refine((text) => parseDuration(text) !== null, "expected a duration such as 90s, 15m, 24h or 1h30m");
