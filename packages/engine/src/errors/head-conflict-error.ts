import { UwfError } from "@uwf/protocol";

/** The head moved while this process worked: its result was kept in the store but not appended (retrying later can help). */
export class HeadConflictError extends UwfError<"head-conflict"> {
  static override readonly code = "head-conflict" as const;
  static override readonly name = "HeadConflictError";

  constructor(threadId: string, expectedHead: string, written: string) {
    super(
      `thread ${threadId} moved on from ${expectedHead} while this step ran; step ${written} was kept but not appended`,
      {
        data: { thread: threadId, expectedHead, step: written },
      },
    );
  }
}
