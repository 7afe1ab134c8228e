import type { ThreadRecord } from "@uwf/protocol";
import { ResumeMismatchError } from "../errors/resume-mismatch-error.ts";
import { SuspendTimeoutError } from "../errors/suspend-timeout-error.ts";
import { ThreadCancelledError } from "../errors/thread-cancelled-error.ts";
import { ThreadEndedError } from "../errors/thread-ended-error.ts";
import { ThreadNotResumableError } from "../errors/thread-not-resumable-error.ts";
import { ThreadSuspendedError } from "../errors/thread-suspended-error.ts";

/**
 * How a step goes on from where the thread stands: a plain step; a suspended role answered; an ended
 * thread continued; a thread its budget suspended, going on under raised limits; or the step of a
 * thread set `failed` tried again (by a plain step, or a resume without an answer).
 */
export type StepMode = "step" | "answer-suspended" | "resume-ended" | "lift-budget" | "resume-failed";

/** What `uwf resume` brings to its step: an answer (or, for an ended thread, a prompt), or none when it only raises limits. */
export interface ResumeRequest {
  answer: string | undefined;
}

/** Whether a thread may take a step now, and of which kind; a typed error otherwise. */
export function checkSteppable(record: ThreadRecord, resume: ResumeRequest | undefined): StepMode {
  if (record.status === "cancelled") throw new ThreadCancelledError(record.id);
  // A suspension whose wait ran out with no `$timeout` edge: still its head, answered late like any other.
  if (record.status === "failed" && record.failure?.code === SuspendTimeoutError.code) {
    if (resume?.answer === undefined) throw new ResumeMismatchError(record.id, { needs: "answer", role: record.next });
    return "answer-suspended";
  }
  if (resume === undefined) {
    if (record.status === "ended") throw new ThreadEndedError(record.id, record.head);
    if (record.status === "suspended") throw new ThreadSuspendedError(record);
    // A failed thread's step is tried again: a success makes it active.
    if (record.status === "failed") return "resume-failed";
    return "step";
  }
  if (record.status === "failed") {
    if (resume.answer !== undefined) throw new ResumeMismatchError(record.id, { needs: "retry" });
    return "resume-failed";
  }
  if (record.status === "suspended") {
    const exceeded = record.budget?.exceeded ?? null;
    if (exceeded !== null) {
      if (resume.answer === undefined) return "lift-budget";
      throw new ResumeMismatchError(record.id, { needs: "raised-limit", limit: exceeded });
    }
    if (resume.answer === undefined) {
      throw new ResumeMismatchError(record.id, { needs: "answer", role: record.next });
    }
    return "answer-suspended";
  }
  if (record.status === "ended") {
    if (resume.answer === undefined) {
      throw new ResumeMismatchError(record.id, { needs: "prompt" });
    }
    return "resume-ended";
  }
  throw new ThreadNotResumableError(record.id, record.status);
}
