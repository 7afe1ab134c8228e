import type { AnswerInput } from "./answer-schema.ts";

/** What `answer: approval` stands for: a yes or no, and an optional comment. */
export const APPROVAL_ANSWER_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: "object",
  properties: {
    approved: { type: "boolean", description: "Whether to go on." },
    comment: { type: "string", description: "Anything the agent should know." },
  },
  required: ["approved"],
  additionalProperties: false,
});

/** The JSON Schema an answer to this role is checked against; null for a role that takes free text (`resume -p`). */
export function answerSchemaOf(role: { answer?: AnswerInput }): Record<string, unknown> | null {
  if (role.answer === undefined) return null;
  return role.answer === "approval" ? { ...APPROVAL_ANSWER_SCHEMA } : role.answer;
}
