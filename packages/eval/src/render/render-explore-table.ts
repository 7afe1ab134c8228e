import type { ExploreResult } from "@uwf/protocol";
import { formatDelta, formatInterval, formatRate, MISSING } from "../format/format-number.ts";
import { createPalette } from "./create-palette.ts";
import { formatColumns } from "./format-columns.ts";

/**
 * `uwf explore`, `explore show`, `explore rescore`: a line per explored step (role, re-runs, passed,
 * pass rate with its 95% interval, effect; decisive steps marked), then the original verdict, the
 * decisive steps and the gate.
 */
export function renderExploreTable(result: ExploreResult, options: { color: boolean }): string {
  const paint = createPalette(options.color);
  const rows = result.steps.map((step) => [
    String(step.step),
    step.role,
    String(step.samples),
    String(step.passed),
    formatRate(step.passRate),
    step.interval === null ? MISSING : formatInterval({ low: step.interval[0], high: step.interval[1] }),
    formatDelta(step.effect, formatRate),
    step.decisive ? paint.bold("◆ decisive") : step.unstarted > 0 ? paint.yellow(`${step.unstarted} not run`) : "",
  ]);
  const table = formatColumns(
    ["STEP", "ROLE", "SAMPLES", "PASSED", "PASS RATE", "95% INTERVAL", "EFFECT", ""].map((header) => paint.dim(header)),
    rows,
    ["right", "left", "right", "right", "right", "left", "right", "left"],
  );
  const verdict = result.original.verdict;
  const painted =
    verdict === "passed" ? paint.green(verdict) : verdict === "failed" ? paint.red(verdict) : paint.yellow(verdict);
  const lines = [
    paint.bold(`exploration ${result.report} of thread ${result.thread}`),
    table,
    `original run: ${painted} (${result.original.status})`,
    result.decisive.length === 0
      ? "decisive: none (no step moved the pass rate)"
      : `decisive: ${result.decisive.map((step) => `step ${step}`).join(", ")}`,
  ];
  if (result.gate !== null) {
    const first = result.steps[0];
    const detail = `step ${first?.step ?? "?"} pass rate ${formatRate(first?.passRate)}, gate ${formatRate(result.gate.minPassRate)}`;
    lines.push(
      result.gateHeld === true ? paint.green(`gate held: ${detail}`) : paint.red(`gate did not hold: ${detail}`),
    );
  }
  if (result.html !== undefined) lines.push(paint.dim(`html: ${result.html}`));
  return lines.join("\n");
}
