import { z } from "zod";

export const initResultSchema = z.object({ home: z.string(), created: z.boolean() });
export type InitResult = z.infer<typeof initResultSchema>;

export const configValueResultSchema = z.object({ key: z.string(), value: z.unknown() });
export type ConfigValueResult = z.infer<typeof configValueResultSchema>;

export const configListResultSchema = z.object({
  entries: z.array(z.object({ key: z.string(), value: z.unknown() })),
});
export type ConfigListResult = z.infer<typeof configListResultSchema>;
