import { type Lease, UwfError } from "@uwf/protocol";

/**
 * Another process holds the thread's step lease (retrying later can help). The message says when the
 * lease expires: a stepper that runs renews it, and one that died on another host holds the thread
 * until then (on this host a dead holder's lease is taken over at once, so it never gets here).
 */
export class ThreadBusyError extends UwfError<"thread-busy"> {
  static override readonly code = "thread-busy" as const;
  static override readonly name = "ThreadBusyError";

  constructor(threadId: string, holder: Lease, now: Date) {
    const seconds = Math.max(0, Math.ceil((Date.parse(holder.expiresAt) - now.getTime()) / 1000));
    super(
      `thread ${threadId} is busy: pid ${holder.pid} on ${holder.host} has been stepping it since ${holder.acquiredAt}; ` +
        `its lease expires at ${holder.expiresAt} (in ${seconds} s) unless that stepper renews it while it runs`,
      { data: { thread: threadId, holder, expiresInSeconds: seconds } },
    );
  }
}
