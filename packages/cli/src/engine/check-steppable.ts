import type { ThreadRecord } from "@uwf/protocol";
import { ThreadCancelledError } from "../errors/thread-cancelled-error.ts";
import { ThreadEndedError } from "../errors/thread-ended-error.ts";
import { ThreadNotResumableError } from "../errors/thread-not-resumable-error.ts";
import { ThreadSuspendedError } from "../errors/thread-suspended-error.ts";

export type StepMode = "step" | "answer-suspended" | "resume-ended";

/** Whether a thread may take a step now, and of which kind; a typed error (with its exit code) otherwise. */
export function checkSteppable(record: ThreadRecord, resumeAnswer: string | undefined): StepMode {
  if (record.status === "cancelled") throw new ThreadCancelledError(record.id);
  if (resumeAnswer === undefined) {
    if (record.status === "ended") throw new ThreadEndedError(record.id, record.head);
    if (record.status === "suspended") throw new ThreadSuspendedError(record.id, record.reason);
    return "step";
  }
  if (record.status === "suspended") return "answer-suspended";
  if (record.status === "ended") return "resume-ended";
  throw new ThreadNotResumableError(record.id, record.status);
}
