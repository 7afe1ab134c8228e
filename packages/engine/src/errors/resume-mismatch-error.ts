import { type BudgetLimit, UwfError } from "@uwf/protocol";

/** What a resume should have brought for where its thread stands. */
export type ResumeNeed =
  /** A raised limit and no answer: the budget suspended the thread, no role asked anything (`data.limit`). */
  | { needs: "raised-limit"; limit: BudgetLimit }
  /** An answer: a role suspended the thread with a question (`data.role`). */
  | { needs: "answer"; role: string | null }
  /** A prompt: the thread has ended, and continuing it takes one. */
  | { needs: "prompt" }
  /** No answer: a worker set the thread `failed`, and its step is tried again as it was. */
  | { needs: "retry" };

/**
 * A resume that brought the wrong thing for where the thread stands: an answer to a thread its budget
 * suspended or a worker set `failed`, or no answer (only raised limits) to one that waits for an answer
 * or has ended. Nothing was run or changed. Its code is `usage`: the request itself is wrong.
 */
export class ResumeMismatchError extends UwfError {
  static readonly code = "usage" as const;

  constructor(threadId: string, need: ResumeNeed) {
    super(ResumeMismatchError.code, describe(threadId, need), { data: { thread: threadId, ...need } });
    this.name = "ResumeMismatchError";
  }
}

function describe(threadId: string, need: ResumeNeed): string {
  switch (need.needs) {
    case "raised-limit":
      return `thread ${threadId} is suspended for its budget, not by a role, so there is nothing to answer`;
    case "answer":
      return `thread ${threadId} waits for an answer to its ${need.role ?? "suspended"} role`;
    case "prompt":
      return `thread ${threadId} has ended`;
    case "retry":
      return `thread ${threadId} failed, so there is nothing to answer`;
  }
}
