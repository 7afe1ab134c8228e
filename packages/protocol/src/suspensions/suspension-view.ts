import { z } from "zod";

/**
 * A suspended thread's question, as `show --json` and the step result give it, so a bot or the web UI
 * can build a form: the role that asks, its reason, what it sent (`ask`), the schema of the answer it
 * needs (null: free text, `resume -p`), and until when it waits (null: no `suspendTimeout`).
 * Absent on a thread suspended for its budget, which needs raised limits, not an answer.
 */
export const suspensionViewSchema = z
  .object({
    role: z.string(),
    reason: z.string().nullable(),
    /** The suspending reply's fields apart from `$status` and `reason` (validated against the role's `ask:` when it has one). */
    ask: z.record(z.string(), z.unknown()),
    /** The JSON Schema `resume --answer` is checked against (`answer: approval` expanded); null when the role takes text. */
    answerSchema: z.record(z.string(), z.unknown()).nullable(),
    /** The role's `suspendTimeout` as written; null without one. */
    timeout: z.string().nullable(),
    /** When the wait runs out (the suspending step's completion plus `timeout`); null without one. */
    deadline: z.iso.datetime().nullable(),
  })
  .strict();
export type SuspensionView = z.infer<typeof suspensionViewSchema>;
