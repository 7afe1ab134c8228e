import type { ExpandedNode, ShownThread, ThreadFailure } from "@uwf/protocol";
import { stringify } from "yaml";
import { createPalette } from "./create-palette.ts";
import { formatBudget } from "./describe-budget.ts";
import { describeForkOrigin } from "./describe-fork-origin.ts";
import { formatUsage } from "./format-usage.ts";

export function formatThreadRecord(thread: ShownThread, color: boolean): string {
  const paint = createPalette(color);
  const rows: Array<[string, string]> = [
    ["thread", thread.id],
    ["workflow", `${thread.workflow} (${thread.workflowAddress})`],
    ["status", thread.status + (thread.reason === null ? "" : ` — ${thread.reason}`)],
    ...(thread.failure === undefined ? [] : [failureRow(thread.failure)]),
    ...(thread.queued === true ? [["queued", "yes: `uwf worker` steps it"] as [string, string]] : []),
    ["next", thread.next ?? "—"],
    ["steps", String(thread.stepCount)],
    ["head", thread.head],
    ["start", thread.start],
    ["created", thread.createdAt],
    ["updated", thread.updatedAt],
  ];
  if (thread.inputs !== undefined) {
    rows.push([
      "inputs",
      Object.entries(thread.inputs)
        .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
        .join(" "),
    ]);
  }
  if (thread.forkedFrom !== null) rows.push(["forked from", describeForkOrigin(thread.forkedFrom)]);
  const usage = formatUsage(thread.usage);
  if (usage !== "") rows.push(["usage", usage]);
  const failed = thread.failedUsage === undefined ? "" : formatUsage(thread.failedUsage);
  if (failed !== "") rows.push(["failed runs", `${failed} (included in usage)`]);
  if (thread.budget !== undefined) rows.push(["budget", formatBudget(thread.budget)]);
  return rows.map(([key, value]) => `${paint.dim(key.padEnd(12))}${value}`).join("\n");
}

/** Why a worker gave up on the thread, and how to go on. */
function failureRow(failure: ThreadFailure): [string, string] {
  const attempts = `${failure.attempts} attempt${failure.attempts === 1 ? "" : "s"}`;
  return ["failure", `${failure.code}: ${failure.message} (${attempts}, ${failure.failedAt}; \`uwf resume\` retries)`];
}

/** A node as YAML; a step also shows its output, agent run and body. */
export function formatExpandedNode(expanded: ExpandedNode, color: boolean): string {
  const paint = createPalette(color);
  const sections = [`${paint.bold(expanded.kind ?? "node")} ${expanded.address}`, stringify(expanded.node).trimEnd()];
  if (expanded.output !== undefined) sections.push(paint.bold("output"), stringify(expanded.output).trimEnd());
  if (expanded.run !== undefined) sections.push(paint.bold("agent run"), stringify(expanded.run).trimEnd());
  if (expanded.body !== undefined) sections.push(paint.bold("body"), expanded.body);
  return sections.join("\n\n");
}
