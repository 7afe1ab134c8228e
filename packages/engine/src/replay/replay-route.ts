import type { ReplayDivergence } from "@uwf/protocol";
import { END } from "@uwf/protocol";
import {
  type CompiledWorkflow,
  EdgePromptError,
  type ModeratorDecision,
  type ModeratorHistory,
  type ModeratorMode,
  pickNextRole,
} from "@uwf/workflow";
import { isRoutingError } from "../routing/is-routing-error.ts";

/** A route the moderator picked, or the routing error it threw instead. */
export type Routed = { decision: ModeratorDecision } | { error: unknown };

/** The moderator's pick (the very one a step runs); a routing error is kept as the result, any other thrown. */
export async function routeThrough(
  compiled: CompiledWorkflow,
  history: ModeratorHistory,
  mode: ModeratorMode,
): Promise<Routed> {
  try {
    return { decision: await pickNextRole(compiled, history, { mode }) };
  } catch (error) {
    if (!isRoutingError(error)) throw error;
    return { error };
  }
}

/** A routing error as a divergence: an edge prompt that does not render, or no edge (or condition) that holds. */
export function describeRoutingFailure(
  error: unknown,
  expected: string,
  described: string | null,
): Omit<ReplayDivergence, "step" | "address" | "role"> {
  const reason = described ?? (error as Error).message;
  if (error instanceof EdgePromptError) {
    const { to } = error.data as { to: string };
    return { kind: "prompt-failed", field: fieldOf(reason), expected, actual: to, reason };
  }
  return { kind: "no-route", field: null, expected, actual: null, reason };
}

export function describeTarget(role: string): string {
  return role === END ? "$END" : `role ${role}`;
}

/** `missing required field "approved"`, `field "score": expected …` → the field's name. */
export function fieldOf(problem: string): string | null {
  return /field "([^"]*)"/.exec(problem)?.[1] ?? null;
}
