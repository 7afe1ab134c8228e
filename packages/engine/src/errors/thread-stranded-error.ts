import { UwfError } from "@uwf/protocol";

/**
 * The thread's last reply leads nowhere (a thread an older uwf committed without routing it, or a
 * plain fork of such a step): stepping cannot go on. A fork of `data.head` with a corrected reply goes on;
 * cancelling the thread stops it.
 */
export class ThreadStrandedError extends UwfError<"thread-stranded"> {
  static override readonly code = "thread-stranded" as const;
  static override readonly name = "ThreadStrandedError";

  constructor(threadId: string, head: string, role: string, problem: string, options: { cause?: unknown } = {}) {
    super(
      `thread ${threadId} cannot go on: the last reply (role ${role}, step ${head}) cannot be routed: ${problem}.`,
      { data: { thread: threadId, head, role, problem }, cause: options.cause },
    );
  }
}
