/**
 * What a role's `retries:` retries: an agent that failed (exit ≠ 0, could not start), an agent stopped
 * at its deadline, and a reply that stayed invalid or unroutable after being sent back.
 */
export const RETRY_TRIGGERS = ["agent-failed", "timeout", "invalid-reply"] as const;
