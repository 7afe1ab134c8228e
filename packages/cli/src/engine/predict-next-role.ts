import {
  type CompiledWorkflow,
  ConditionFailedError,
  ConditionTimeoutError,
  EdgePromptError,
  type ModeratorHistory,
  NoResumeEdgeError,
  NoTransitionError,
  pickNextRole,
} from "@uwf/agent-kit";

/**
 * The role the moderator would pick next, for a thread record; null when the workflow cannot route
 * from here (no edge holds, a condition fails, an edge prompt does not render): the next step
 * reports that, precisely. Any other error (a node that cannot be read, a bug) is thrown.
 */
export async function predictNextRole(
  compiled: CompiledWorkflow,
  history: ModeratorHistory,
  mode: "new" | "continue" = "continue",
): Promise<string | null> {
  try {
    return (await pickNextRole(compiled, history, { mode })).role;
  } catch (error) {
    if (isRoutingError(error)) return null;
    throw error;
  }
}

/** The moderator's own errors: the workflow and the history lead nowhere. */
function isRoutingError(error: unknown): boolean {
  return (
    error instanceof NoTransitionError ||
    error instanceof EdgePromptError ||
    error instanceof ConditionFailedError ||
    error instanceof ConditionTimeoutError ||
    error instanceof NoResumeEdgeError
  );
}
