import { BUDGET_LIMIT_NAMES, type ThreadRecord } from "@uwf/protocol";
import { ThreadCancelledError } from "./thread-cancelled-error.ts";
import { ThreadEndedError } from "./thread-ended-error.ts";
import { ThreadNotResumableError } from "./thread-not-resumable-error.ts";
import { ThreadSuspendedError } from "./thread-suspended-error.ts";
import { UsageError } from "./usage-error.ts";

/**
 * How a step goes on from where the thread stands: a plain step; a suspended role answered; an ended
 * thread continued; or a thread its budget suspended, going on under raised limits.
 */
export type StepMode = "step" | "answer-suspended" | "resume-ended" | "lift-budget";

/** What `uwf resume` brings to its step: an answer (or, for an ended thread, a prompt), or none when it only raises limits. */
export interface ResumeRequest {
  answer: string | undefined;
}

/** Whether a thread may take a step now, and of which kind; a typed error (with its exit code) otherwise. */
export function checkSteppable(record: ThreadRecord, resume: ResumeRequest | undefined): StepMode {
  if (record.status === "cancelled") throw new ThreadCancelledError(record.id);
  if (resume === undefined) {
    if (record.status === "ended") throw new ThreadEndedError(record.id, record.head);
    if (record.status === "suspended") throw new ThreadSuspendedError(record);
    return "step";
  }
  if (record.status === "suspended") {
    const exceeded = record.budget?.exceeded ?? null;
    if (exceeded !== null) {
      if (resume.answer === undefined) return "lift-budget";
      throw new UsageError(
        `thread ${record.id} is suspended for its budget, not by a role, so there is nothing to answer: raise the limit with \`uwf resume ${record.id} ${BUDGET_LIMIT_NAMES[exceeded].flag} ...\` and no -p`,
        { thread: record.id },
      );
    }
    if (resume.answer === undefined) {
      throw new UsageError(
        `thread ${record.id} waits for an answer to its ${record.next ?? "suspended"} role: give it with -p ANSWER (a raised limit alone does not answer it)`,
        { thread: record.id },
      );
    }
    return "answer-suspended";
  }
  if (record.status === "ended") {
    if (resume.answer === undefined) {
      throw new UsageError(`thread ${record.id} has ended: continuing it takes a prompt, -p PROMPT`, {
        thread: record.id,
      });
    }
    return "resume-ended";
  }
  throw new ThreadNotResumableError(record.id, record.status);
}
