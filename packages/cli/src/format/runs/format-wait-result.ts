import type { WaitResult } from "@uwf/protocol";
import { createPalette } from "../text/create-palette.ts";
import { describeOutcome } from "../thread/format-step-result.ts";

/**
 * One line per thread: `01K… ended (reviewer approved)`, `01K… suspended — Which colour?`,
 * `01K… failed — agent-failed: … (4 attempts)`.
 */
export function formatWaitResult(result: WaitResult, color: boolean): string {
  const paint = createPalette(color);
  return result.threads
    .map(({ thread, status, reason, failure, outcome }) => {
      const why =
        failure !== undefined
          ? ` — ${failure.code}: ${failure.message} (${failure.attempts} attempt${failure.attempts === 1 ? "" : "s"})`
          : status === "suspended" && reason !== null
            ? ` — ${reason}`
            : outcome !== undefined
              ? ` (${describeOutcome(outcome)})`
              : "";
      return `${paint.cyan(thread)} ${status}${why}`;
    })
    .join("\n");
}
