import { UwfError } from "@uwf/protocol";

/** The head moved while this process worked: its result was kept in the store but not appended (retrying later can help). */
export class HeadConflictError extends UwfError {
  static readonly code = "head-conflict" as const;

  constructor(threadId: string, expectedHead: string, written: string) {
    super(
      HeadConflictError.code,
      `thread ${threadId} moved on from ${expectedHead} while this step ran; step ${written} was kept but not appended`,
      {
        data: { thread: threadId, expectedHead, step: written },
      },
    );
    this.name = "HeadConflictError";
  }
}
