import type { BatchThreadOutcome, StepBatchResult } from "@uwf/protocol";
import { formatTable } from "../table/format-table.ts";
import { createPalette } from "../text/create-palette.ts";
import { describeOutcome } from "../thread/format-step-result.ts";

/** The longest error shown in the table; stderr had the whole message when the thread failed. */
const ERROR_WIDTH = 60;

/**
 * The summary after a batch's step lines: one row per thread (its id, the steps it ran, how it came
 * out, what it spent, its error), then the totals and why the batch stopped, if it did.
 */
export function formatStepBatchResult(result: StepBatchResult, color: boolean): string {
  const paint = createPalette(color);
  const outcomeColor: Record<BatchThreadOutcome, (text: string) => string> = {
    ended: paint.dim,
    active: paint.green,
    waiting: paint.green,
    suspended: paint.yellow,
    stopped: paint.yellow,
    "already-ended": paint.dim,
    busy: paint.red,
    failed: paint.red,
    cancelled: paint.red,
    interrupted: paint.red,
  };
  const rows = result.threads.map((thread) => [
    thread.thread,
    String(thread.steps.length),
    outcomeColor[thread.outcome](thread.outcome) +
      (thread.threadOutcome === undefined ? "" : ` (${describeOutcome(thread.threadOutcome)})`),
    formatCost(thread.usage.costUsd),
    thread.error === undefined ? "" : cut(`${thread.error.code}: ${thread.error.message.split("\n")[0]}`),
  ]);
  const table = formatTable(["THREAD", "STEPS", "STATUS", "COST", "ERROR"], rows);
  const counts = new Map<string, number>();
  // Ended threads are counted by how they ended: "6 ended (reviewer gave_up)" tells more than "10 ended".
  for (const thread of result.threads) {
    const key =
      thread.threadOutcome === undefined
        ? thread.outcome
        : `${thread.outcome} (${describeOutcome(thread.threadOutcome)})`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const steps = result.threads.reduce((total, thread) => total + thread.steps.length, 0);
  const totals = [
    `${result.threads.length} ${result.threads.length === 1 ? "thread" : "threads"}: ${[...counts].map(([outcome, count]) => `${count} ${outcome}`).join(", ")}`,
    `${steps} ${steps === 1 ? "step" : "steps"}`,
    formatCost(result.usage.costUsd),
  ];
  if (result.stoppedBy === "batch-max-cost")
    totals.push(paint.yellow(`stopped at --batch-max-cost ${formatCost(result.maxCostUsd ?? 0)}`));
  if (result.stoppedBy === "interrupted") totals.push(paint.red("interrupted"));
  return `${table}\n${totals.join(" · ")}`;
}

function formatCost(costUsd: number): string {
  return `$${costUsd.toFixed(4)}`;
}

function cut(text: string): string {
  return text.length <= ERROR_WIDTH ? text : `${text.slice(0, ERROR_WIDTH - 1)}…`;
}
