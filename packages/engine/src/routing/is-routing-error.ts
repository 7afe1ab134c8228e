import {
  ConditionFailedError,
  ConditionTimeoutError,
  EdgePromptError,
  FanOutError,
  NoResumeEdgeError,
  NoTransitionError,
} from "@uwf/workflow";

/** The moderator's own errors: the workflow and the history lead nowhere (no edge holds, a condition fails, a prompt does not render, a fan-out's branches cannot be planned). */
export function isRoutingError(error: unknown): boolean {
  return (
    error instanceof NoTransitionError ||
    error instanceof EdgePromptError ||
    error instanceof FanOutError ||
    error instanceof ConditionFailedError ||
    error instanceof ConditionTimeoutError ||
    error instanceof NoResumeEdgeError
  );
}
