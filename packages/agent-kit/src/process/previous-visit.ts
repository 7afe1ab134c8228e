import type { ModelUsage } from "@uwf/protocol";

/** A role's last visit before this step: the session or conversation a launch may continue. */
export interface PreviousVisit {
  sessionId: string | null;
  /** The model messages of that visit's run, as the agent stored them. */
  transcript: unknown[] | null;
  shared: boolean;
  /**
   * The running usage totals the agent reported for that session, per model (Claude Code's
   * `modelUsage`), so a launch that resumes it counts only what it adds; null when not recorded.
   */
  sessionUsage?: ModelUsage | null;
}
