import { z } from "zod";

/** A JSON Schema object; checked as a schema by the loader, not here. */
const jsonSchemaObject = z.record(z.string(), z.unknown());

/**
 * A role's `answer:`: the JSON Schema of what a person gives `uwf resume --answer`, or `approval`,
 * shorthand for APPROVAL_ANSWER_SCHEMA.
 */
export const answerInputSchema = z.union([z.literal("approval"), jsonSchemaObject]);
export type AnswerInput = z.infer<typeof answerInputSchema>;
