import { z } from "zod";
import { addressSchema } from "../ids/address.ts";

/** `uwf show HASH`: the node, and for a step its output fields, body and agent run, and the person's typed answer it took. */
export const expandedNodeSchema = z.object({
  address: addressSchema,
  kind: z.string().nullable(),
  node: z.unknown(),
  output: z.record(z.string(), z.unknown()).optional(),
  body: z.string().optional(),
  run: z.unknown().optional(),
  /** The fields of the typed answer (`resume --answer`) the step answered; absent on other steps. */
  answer: z.record(z.string(), z.unknown()).optional(),
});
export type ExpandedNode = z.infer<typeof expandedNodeSchema>;

/** `uwf show --prompt | --reply`: the text node's address and its text. */
export const showTextResultSchema = z.object({ address: addressSchema, text: z.string() });
export type ShowTextResult = z.infer<typeof showTextResultSchema>;
