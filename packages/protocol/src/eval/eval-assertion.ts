import { z } from "zod";
import { THREAD_STATUSES } from "../threads/thread-statuses.ts";

/** What every assertion has: a name unique in its report, and a weight in the sample's score (default 1). */
const assertionBase = {
  name: z.string().min(1),
  weight: z.number().nonnegative().optional(),
};

/**
 * A JSONata expression over the thread's view (EvalThreadView): a truthy result passes, a falsy one fails,
 * a number in [0, 1] is a score (passing at 0.5 and above); anything else, or an error, is an errored sample.
 */
export const jsonataAssertionSchema = z
  .object({ ...assertionBase, kind: z.literal("jsonata"), expr: z.string().min(1) })
  .strict();

/** Passes when the thread ended with this `$status` (`outcome: STATUS`). */
export const outcomeAssertionSchema = z
  .object({ ...assertionBase, kind: z.literal("outcome"), status: z.string() })
  .strict();

/** Passes when the thread stands in this status (`status: ended`). */
export const statusAssertionSchema = z
  .object({ ...assertionBase, kind: z.literal("status"), status: z.enum(THREAD_STATUSES) })
  .strict();

/**
 * A program given the thread's view (with step bodies) as JSON on stdin, printing
 * `{ "pass": bool, "score"?: number, "reason"?: string }`. A crash, a timeout or other output errs the sample.
 * `command` is run without a shell when it is a list, with `sh -c` when it is one string.
 */
export const commandAssertionSchema = z
  .object({
    ...assertionBase,
    kind: z.literal("command"),
    command: z.union([z.string().min(1), z.array(z.string()).min(1)]),
    /** Where it runs; relative to the suite file's folder, or the current directory. Default: there. */
    cwd: z.string().optional(),
    timeoutSeconds: z.number().positive().optional(),
  })
  .strict();

/**
 * A role of a workflow that reads the thread's transcript and replies `pass`, `score` and `reason` in its
 * frontmatter. Judging is an ordinary thread of that workflow (recorded, budgeted, forkable), started with
 * the transcript as its prompt and run to its end; the sample links it.
 */
export const judgeAssertionSchema = z
  .object({
    ...assertionBase,
    kind: z.literal("judge"),
    /** A workflow file or a registered workflow name. */
    workflow: z.string().min(1),
    /** The role whose last reply is the verdict; default: the role whose reply ended the judging thread. */
    role: z.string().optional(),
    /** The agent the judging thread runs with (as `--agent`); default: the workflow's own. */
    agent: z.string().optional(),
    /** What the judge is asked, put before the transcript (default: judge whether the task was done). */
    prompt: z.string().optional(),
  })
  .strict();

export const evalAssertionSchema = z.discriminatedUnion("kind", [
  jsonataAssertionSchema,
  outcomeAssertionSchema,
  statusAssertionSchema,
  commandAssertionSchema,
  judgeAssertionSchema,
]);
export type EvalAssertion = z.infer<typeof evalAssertionSchema>;
export type EvalAssertionKind = EvalAssertion["kind"];
