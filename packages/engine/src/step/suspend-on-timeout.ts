import { SUSPEND } from "@uwf/protocol";
import type { AgentRunResult } from "./run-agent-with-retries.ts";

/**
 * A run that ran out of time, for a role with `onTimeout: suspend`, made into the role's suspension:
 * its output a `$SUSPEND` with the reason, its body what the agent wrote before it was stopped (the
 * last attempt's stdout or reply, maybe empty). The run itself is kept whole, outcome `timeout`.
 */
export function suspendOnTimeout<Route>(
  run: AgentRunResult<Route>,
  timeoutMs: number,
  /** Where the suspension leads: nowhere yet, as any suspending reply. */
  route: Route,
): AgentRunResult<Route> {
  const launches = run.attempts.length;
  const after = `${writtenDuration(timeoutMs)}${launches > 1 ? ` (${launches} attempts)` : ""}`;
  const reason = `the agent ran out of time after ${after}: resume to try again, or answer how to go on`;
  return {
    ...run,
    fields: { $status: SUSPEND, reason },
    body: run.attempts.at(-1)?.result.reply ?? "",
    route,
  };
}

/** A run that is a suspension for its time limit (see suspendOnTimeout), which commits as a step. */
export function isTimeoutSuspension(run: AgentRunResult): boolean {
  return run.outcome === "timeout" && run.fields?.$status === SUSPEND && run.route !== null;
}

/** Milliseconds as a workflow writes a duration: `10m`, `1h30m`, `90s` → `1m30s`, `500ms`. */
export function writtenDuration(milliseconds: number): string {
  const units = [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
    ["ms", 1],
  ] as const;
  let left = Math.round(milliseconds);
  let text = "";
  for (const [unit, size] of units) {
    const amount = Math.floor(left / size);
    if (amount > 0) text += `${amount}${unit}`;
    left -= amount * size;
  }
  return text === "" ? "0s" : text;
}
