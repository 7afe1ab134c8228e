import { type CompiledWorkflow, type ModeratorDecision, type ModeratorHistory, pickNextRole } from "@uwf/workflow";
import { isRoutingError } from "./is-routing-error.ts";

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
  return (await predictNextDecision(compiled, history, mode))?.role ?? null;
}

/** As predictNextRole, with the whole decision (the edge taken, for an outcome). */
export async function predictNextDecision(
  compiled: CompiledWorkflow,
  history: ModeratorHistory,
  mode: "new" | "continue" = "continue",
): Promise<ModeratorDecision | null> {
  try {
    return await pickNextRole(compiled, history, { mode });
  } catch (error) {
    if (isRoutingError(error)) return null;
    throw error;
  }
}
