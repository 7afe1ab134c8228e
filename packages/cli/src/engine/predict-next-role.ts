import { type CompiledWorkflow, type ModeratorHistory, pickNextRole } from "@uwf/agent-kit";

/** The role the moderator would pick next, for `uwf list`; null when it cannot tell yet (the error surfaces on the next step). */
export async function predictNextRole(
  compiled: CompiledWorkflow,
  history: ModeratorHistory,
  mode: "new" | "continue" = "continue",
): Promise<string | null> {
  try {
    return (await pickNextRole(compiled, history, { mode })).role;
  } catch {
    return null;
  }
}
