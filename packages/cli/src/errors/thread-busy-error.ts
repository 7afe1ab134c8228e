import { type Lease, UwfError } from "@uwf/protocol";

/** Another process holds the thread's step lease (exit 75: retry later). */
export class ThreadBusyError extends UwfError {
  constructor(threadId: string, holder: Lease) {
    super(
      "thread-busy",
      `thread ${threadId} is busy: pid ${holder.pid} on ${holder.host} has been stepping it since ${holder.acquiredAt}`,
      { data: { thread: threadId, holder } },
    );
    this.name = "ThreadBusyError";
  }
}
