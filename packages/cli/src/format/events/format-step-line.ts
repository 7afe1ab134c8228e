import type { StepSummary } from "@uwf/protocol";
import { createPalette } from "../text/create-palette.ts";
import { formatDuration } from "../text/format-duration.ts";

/** `#2 reviewer approved claude · 12.4s · 7QF3M0X2KD1BH` */
export function formatStepLine(step: StepSummary, color: boolean): string {
  const paint = createPalette(color);
  const status = step.status === null ? "" : ` ${paint.yellow(step.status)}`;
  return `${paint.dim(`#${step.number}`)} ${paint.bold(step.role)}${status} ${paint.dim(`${step.agent} · ${formatDuration(step.durationMs)} · ${step.address}`)}`;
}
