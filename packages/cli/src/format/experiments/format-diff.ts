import type { DiffResult, DiffSide, DiffStepSide, DiffTotals, FieldDifference } from "@uwf/protocol";
import { formatTable } from "../table/format-table.ts";
import { createPalette, type Palette } from "../text/create-palette.ts";
import { formatDuration } from "../text/format-duration.ts";
import { formatUsage } from "../text/format-usage.ts";

/** Values longer than this are cut in the field lines (`--json` has them whole). */
const VALUE_WIDTH = 60;

/**
 * Where the two sides part, each pair of steps after it side by side with the output fields that
 * differ (left → right) and, with `--bodies`, the bodies' diff; then each side's totals.
 */
export function formatDiff(result: DiffResult, color: boolean): string {
  const paint = createPalette(color);
  const lines = [
    `${paint.bold("left")}   ${describeSide(result.left)}`,
    `${paint.bold("right")}  ${describeSide(result.right)}`,
    describeCommon(result),
    ...describeWorkflowChange(result),
  ];
  if (result.steps.length === 0) lines.push(paint.dim("no steps after the common ones: the two chains are the same"));
  else {
    const rows = result.steps.map((step) => [
      String(step.number),
      describeStep(step.left, paint),
      describeStep(step.right, paint),
    ]);
    const table = formatTable(["#", "LEFT", "RIGHT"], rows).split("\n");
    lines.push("", table[0] as string);
    result.steps.forEach((step, index) => {
      lines.push(table[index + 1] as string);
      for (const field of step.fields) lines.push(`     ${describeField(field, paint)}`);
      if (step.bodyDiff !== undefined && step.bodyDiff !== "") {
        lines.push(...step.bodyDiff.split("\n").map((line) => `     ${paintDiffLine(line, paint)}`));
      }
    });
  }
  lines.push(
    "",
    formatTable(
      ["", "STEPS", "TOOK", "USAGE", "STATUS"],
      [totalsRow("left", result.totals.left), totalsRow("right", result.totals.right)],
    ),
  );
  return lines.join("\n");
}

function describeSide(side: DiffSide): string {
  return side.thread === null ? `node ${side.head}` : `thread ${side.thread} (head ${side.head})`;
}

/** Two workflow versions: each side's, then where each side's lineage moved onto another. */
function describeWorkflowChange(result: DiffResult): string[] {
  const change = result.workflowChange;
  if (change === undefined) return [];
  const lines = [
    `workflow: different versions, left ${change.left.name}@${change.left.address}, right ${change.right.name}@${change.right.address}`,
  ];
  for (const side of ["left", "right"] as const) {
    for (const move of change.switches[side]) {
      const where = move.step === null ? "" : ` after step ${move.step}`;
      lines.push(`  ${side}: ${move.thread} forked onto ${move.to.name}@${move.to.address} from ${move.from}${where}`);
    }
  }
  return lines;
}

function describeCommon(result: DiffResult): string {
  if (!result.sameStart) return "no common step: different start nodes, compared from step 1";
  if (result.commonSteps === 0) return `common: the start node ${result.commonAddress} only`;
  const plural = result.commonSteps === 1 ? "" : "s";
  return `common: ${result.commonSteps} step${plural}, the last ${result.commonAddress}`;
}

function describeStep(step: DiffStepSide | null, paint: Palette): string {
  if (step === null) return paint.dim("—");
  const status = step.status === null ? "" : ` ${step.status}`;
  return `${paint.bold(step.role)} ${paint.dim(step.agent)}${status} ${paint.dim(formatDuration(step.durationMs))}`;
}

function describeField(field: FieldDifference, paint: Palette): string {
  const left = field.change === "added" ? paint.dim("(absent)") : paint.red(shorten(field.left));
  const right = field.change === "removed" ? paint.dim("(absent)") : paint.green(shorten(field.right));
  return `${field.field}: ${left} → ${right}`;
}

function shorten(value: unknown): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length <= VALUE_WIDTH ? text : `${text.slice(0, VALUE_WIDTH - 1)}…`;
}

function paintDiffLine(line: string, paint: Palette): string {
  if (line.startsWith("+") && !line.startsWith("+++")) return paint.green(line);
  if (line.startsWith("-") && !line.startsWith("---")) return paint.red(line);
  if (line.startsWith("@@")) return paint.cyan(line);
  return line;
}

function totalsRow(name: string, totals: DiffTotals): string[] {
  const status = [totals.status, totals.lastStatus === null ? null : `(${totals.lastStatus})`]
    .filter((part) => part !== null)
    .join(" ");
  return [name, String(totals.steps), formatDuration(totals.durationMs), formatUsage(totals.usage) || "—", status];
}
