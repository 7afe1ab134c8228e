import { type Lease, UwfError } from "@uwf/protocol";

/**
 * `uwf cancel` asked the holder of the thread's lease to stop and cancel it, and the holder had not
 * within the wait (retrying later can help). The request stays on the lease: the holder honours it
 * when it next renews the lease or lets the thread go, and whoever takes the lease over inherits it.
 */
export class CancelPendingError extends UwfError<"cancel-pending"> {
  static override readonly code = "cancel-pending" as const;
  static override readonly name = "CancelPendingError";

  constructor(threadId: string, holder: Lease, waitedMs: number) {
    const seconds = Math.round(waitedMs / 1000);
    super(
      `thread ${threadId}: pid ${holder.pid} on ${holder.host}, which is stepping it, was asked to stop and cancel it ` +
        `but had not after ${seconds} s; the request stays, and is honoured when that holder next renews its lease ` +
        `(by ${holder.expiresAt}) or lets the thread go`,
      { data: { thread: threadId, holder, waitedSeconds: seconds } },
    );
  }
}
