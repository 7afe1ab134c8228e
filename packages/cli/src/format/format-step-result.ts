import type { StepResult } from "@uwf/protocol";
import { createPalette } from "./create-palette.ts";
import { formatDuration } from "./format-duration.ts";

/** One line per step run, then where the thread stands. */
export function formatStepResult(result: StepResult, color: boolean): string {
  const paint = createPalette(color);
  const lines = result.steps.map((step) => {
    const status = step.status === null ? "" : ` ${paint.yellow(step.status)}`;
    return `${paint.dim(`#${step.number}`)} ${paint.bold(step.role)}${status} ${paint.dim(`${step.agent} · ${formatDuration(step.durationMs)} · ${step.address}`)}`;
  });
  lines.push(`thread ${result.thread} ${paint.cyan(result.status)}${standing(result)}`);
  return lines.join("\n");
}

function standing(result: StepResult): string {
  if (result.status === "ended") return " · it reached $END, nothing is left to step";
  return result.next === null ? "" : ` · next: ${result.next}`;
}
