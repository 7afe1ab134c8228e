import type { ReplayDivergence, ReplayedThread, ReplayResult } from "@uwf/protocol";
import { createPalette, type Palette } from "../text/create-palette.ts";

/**
 * One line per thread, then the counts: what a CI log shows for a workflow change.
 * `01K… identical  4 steps`, `01K… diverged   step 2 reviewer 7QK2…: route-changed writer → $END: …`.
 */
export function formatReplay(result: ReplayResult, color: boolean): string {
  const paint = createPalette(color);
  const lines = result.threads.map((thread) => formatThreadLine(thread, paint));
  const { name, address } = result.workflow;
  const count = result.threads.length;
  const summary = `${count} thread${count === 1 ? "" : "s"} replayed through ${name} (${address}): ${paint.green(`${result.identical} identical`)}, ${result.diverged === 0 ? "0 diverged" : paint.red(`${result.diverged} diverged`)}`;
  return [...lines, summary].join("\n");
}

function formatThreadLine(thread: ReplayedThread, paint: Palette): string {
  const id = paint.cyan(thread.thread);
  if (thread.divergence !== null) return `${id} ${paint.red("diverged ")} ${describeDivergence(thread.divergence)}`;
  const branches =
    thread.branches === 0 ? "" : ` (and ${thread.branches} branch thread${thread.branches === 1 ? "" : "s"})`;
  const steps = `${thread.steps} step${thread.steps === 1 ? "" : "s"}${branches}`;
  if (thread.notReplayed === null) return `${id} ${paint.green("identical")} ${steps}`;
  const { fromStep, reason } = thread.notReplayed;
  const checked = fromStep <= 1 ? "nothing replayed" : `steps 1-${fromStep - 1} of ${thread.steps}`;
  return `${id} ${paint.green("identical")} ${checked} (${oneLine(reason)})`;
}

/** `step 2 reviewer 7QK2M9XH3DP4A: route-changed writer → $END: role reviewer's reply now leads to $END; …` */
export function describeDivergence(divergence: ReplayDivergence): string {
  const { kind, step, role, address, field, expected, actual, reason } = divergence;
  const change =
    kind === "route-changed" || kind === "prompt-failed"
      ? ` ${expected ?? "?"} → ${actual ?? "?"}`
      : field !== null
        ? ` field ${field}`
        : "";
  return `step ${step} ${role} ${address}: ${kind}${change}: ${oneLine(reason)}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}
