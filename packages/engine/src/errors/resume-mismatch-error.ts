import { type ResumeNeed, UwfError } from "@uwf/protocol";

export type { ResumeNeed };

/**
 * A resume that brought the wrong thing for where the thread stands: an answer to a thread its budget
 * suspended or a worker set `failed`, or no answer (only raised limits) to one that waits for an answer
 * or has ended. Nothing was run or changed. Its code is `usage`: the request itself is wrong.
 */
export class ResumeMismatchError extends UwfError<"usage"> {
  static override readonly code = "usage" as const;
  static override readonly name = "ResumeMismatchError";

  constructor(threadId: string, need: ResumeNeed) {
    super(describe(threadId, need), { data: { thread: threadId, ...need } });
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
