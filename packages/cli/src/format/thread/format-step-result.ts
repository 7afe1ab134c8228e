import { describeReachedLimit } from "@uwf/engine";
import type { StepResult, ThreadOutcome } from "@uwf/protocol";
import { createPalette } from "../text/create-palette.ts";
import { raiseLimitHint } from "./format-budget.ts";
import { formatSuspension } from "./format-suspension.ts";

/**
 * Where the thread stands after `step`, `run`, `resume` or `log --follow`. Each step's own line was
 * printed as it finished (formatEvent); a command that failed adds nothing (its error is on stderr).
 */
export function formatStepResult(result: StepResult, color: boolean): string {
  if (result.error !== undefined) return "";
  const paint = createPalette(color);
  return `thread ${result.thread} ${paint.cyan(result.status)}${standing(result)}`;
}

function standing(result: StepResult): string {
  if (result.status === "ended") {
    const how = result.outcome === undefined ? "" : ` (${describeOutcome(result.outcome)})`;
    return ` · it reached $END${how}, nothing is left to step`;
  }
  const { budget } = result;
  if (result.status === "suspended" && budget?.exceeded != null) {
    const limit = budget.exceeded;
    const reached = describeReachedLimit(limit, budget[limit] ?? 0, budget.spent);
    return ` · budget: ${reached}; go on with \`${raiseLimitHint(result.thread, limit)}\``;
  }
  if (result.status === "suspended" && result.reason !== undefined && result.next !== null)
    return ` · ${result.next} asks: ${result.reason}`;
  if (result.status === "waiting" && result.waitingFor !== undefined) {
    const { pending, branches } = result.waitingFor;
    const join = result.next === null ? "" : `, then ${result.next} joins them`;
    const asking = result.waitingFor.suspended ?? [];
    const next =
      asking.length === pending && pending > 0
        ? `${asking.length === 1 ? "it asks" : "they ask"} for an answer (\`uwf resume BRANCH -p ANSWER\`)`
        : `\`uwf step ${result.thread}\` steps them`;
    return ` · waiting for ${pending} of ${branches} ${branches === 1 ? "branch" : "branches"}${join}; ${next}`;
  }
  return result.next === null ? "" : ` · next: ${result.next}`;
}

/**
 * How a thread ended, in a few words: `reviewer approved` (its `$status`), `reviewer: condition
 * gave_up` (an edge with a condition and no status), or `reviewer` (the edge that always holds).
 */
export function describeOutcome(outcome: ThreadOutcome): string {
  if (outcome.status !== null) return `${outcome.role} ${outcome.status}`;
  if (outcome.edge !== null && outcome.edge.condition !== null) return `${outcome.role}: ${outcome.edge.condition}`;
  return outcome.role;
}

/**
 * What to do about a thread a role suspended, for stderr: its question and the exact command that
 * answers it. Null when the thread is not suspended, or its budget suspended it (formatStepResult says how to raise that).
 */
export function describeSuspension(
  result: Pick<StepResult, "thread" | "status" | "next" | "reason" | "budget" | "suspension">,
): string | null {
  if (result.status !== "suspended" || result.budget?.exceeded != null) return null;
  const who = result.next ?? "the role";
  if (result.suspension !== undefined)
    return [`${who} asks: ${result.reason ?? ""}`, ...formatSuspension(result.thread, result.suspension)].join("\n");
  return `${who} asks: ${result.reason ?? ""}
answer with: uwf resume ${result.thread} -p "ANSWER"`;
}
