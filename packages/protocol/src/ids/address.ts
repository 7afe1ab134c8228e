import { z } from "zod";
import { ADDRESS_PATTERN } from "./address-pattern.ts";

/** A node address as stored and printed: always upper case. */
export const addressSchema = z.string().regex(ADDRESS_PATTERN, "expected a 13-character node address");
