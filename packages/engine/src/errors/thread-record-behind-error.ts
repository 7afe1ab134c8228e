import { UwfError } from "@uwf/protocol";

/**
 * The thread's record is behind its own steps: its chain index (kept after every step) goes on past the
 * recorded head, so the record was restored from an older copy while the thread's later steps stayed (a
 * fork may hold them). A step now would write a second step at a number the thread already has; `uwf cas
 * recover` moves the record forward first.
 */
export class ThreadRecordBehindError extends UwfError<"thread-record-behind"> {
  static override readonly code = "thread-record-behind" as const;
  static override readonly name = "ThreadRecordBehindError";

  constructor(threadId: string, head: string, steps: number, newerHead: string, newerSteps: number) {
    super(
      `thread ${threadId} is recorded at step ${steps} (${head}), but its own steps go on to step ${newerSteps} (${newerHead}): its record was restored from an older copy; \`uwf cas recover\` moves it forward. Nothing was written`,
      { data: { thread: threadId, head, steps, newerHead, newerSteps } },
    );
  }
}
