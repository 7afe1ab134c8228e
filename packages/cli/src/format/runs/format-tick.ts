import type { TickResult } from "@uwf/protocol";

/** The text of `uwf tick` and `uwf schedule trigger`: a line per fire and per thread run. */
export function formatTick(result: TickResult): string {
  const lines = result.fired.map((fire) => {
    if (fire.thread === null) {
      const why = fire.problem === undefined ? fire.skipped : `${fire.skipped}: ${fire.problem}`;
      return `${fire.schedule} ${fire.fireTime}: no thread (${why})`;
    }
    return `${fire.schedule} ${fire.fireTime}: started ${fire.thread}${fire.queued ? " (queued)" : ""}`;
  });
  for (const expired of result.expired) {
    const after =
      expired.routed === null ? "failed (suspend-timeout)" : `$timeout → ${expired.routed} (${expired.status})`;
    lines.push(`${expired.thread} ${expired.role} waited past its suspendTimeout: ${after}`);
  }
  for (const run of result.ran) {
    lines.push(`${run.thread} ${run.status} after ${run.steps} step${run.steps === 1 ? "" : "s"}`);
  }
  return lines.length === 0 ? "nothing due" : lines.join("\n");
}
