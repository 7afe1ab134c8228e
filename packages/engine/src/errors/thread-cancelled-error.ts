import { UwfError } from "@uwf/protocol";

/**
 * Stepping a cancelled thread: it takes no more steps, but can be read and forked. With `stopped`, the
 * thread was cancelled (`uwf cancel`) while this process stepped it: its agent was stopped, and what the
 * agent had written is kept in the run named, as for Ctrl-C.
 */
export class ThreadCancelledError extends UwfError<"thread-cancelled"> {
  static override readonly code = "thread-cancelled" as const;
  static override readonly name = "ThreadCancelledError";

  constructor(threadId: string, stopped?: { run: string | null }) {
    const kept = stopped?.run == null ? "" : `; what the agent had written is kept in run ${stopped.run}`;
    super(
      stopped === undefined
        ? `thread ${threadId} was cancelled and takes no more steps`
        : `thread ${threadId} was cancelled (uwf cancel) while it stepped, so its agent was stopped${kept}`,
      { data: { thread: threadId, run: stopped?.run ?? null } },
    );
  }
}
