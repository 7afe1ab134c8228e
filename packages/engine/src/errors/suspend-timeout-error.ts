import { UwfError } from "@uwf/protocol";

/**
 * A suspension's `suspendTimeout` passed unanswered and its role has no `$timeout` edge: the thread's
 * failure, recorded by whoever found it due (a worker's poll round, `uwf tick`). No step was recorded,
 * the suspension is still the thread's head, and a late answer still answers it.
 */
export class SuspendTimeoutError extends UwfError<"suspend-timeout"> {
  static override readonly code = "suspend-timeout" as const;
  static override readonly name = "SuspendTimeoutError";

  constructor(threadId: string, role: string, after: string, deadline: string) {
    super(
      `thread ${threadId}: role ${role} waited ${after} for an answer (until ${deadline}) and has no $timeout edge`,
      {
        data: { thread: threadId, role, after, deadline },
      },
    );
  }
}
