import { UwfError } from "@uwf/protocol";

export interface LeaseLostErrorOptions {
  /** Another process took the lease over (`lease-lost`), rather than the store failing to renew it (`lease-renewal-failed`). */
  takenOver: boolean;
  /** The agent run that keeps what the stopped agent had written, when one was recorded. */
  run?: string | null;
  cause?: unknown;
}

/**
 * A step lost its thread's lease while it ran: it was taken over, or renewing or updating it
 * failed. The step stops its agent and moves no head, since another stepper may now hold the thread.
 */
export class LeaseLostError extends UwfError<"lease-lost" | "lease-renewal-failed"> {
  static override readonly code = "lease-lost" as const;
  static override readonly name = "LeaseLostError";
  static readonly renewalFailedCode = "lease-renewal-failed" as const;

  constructor(threadId: string, problem: string, options: LeaseLostErrorOptions) {
    const run = options.run ?? null;
    const kept = run === null ? "" : `; what the agent had written is kept in run ${run}`;
    super(`thread ${threadId}: the step lost its lease (${problem}), so it stopped; the thread is unchanged${kept}`, {
      code: options.takenOver ? LeaseLostError.code : LeaseLostError.renewalFailedCode,
      data: { thread: threadId, problem, run },
      cause: options.cause,
    });
  }
}
