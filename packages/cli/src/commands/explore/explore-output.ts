import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  buildExploreResult,
  EvalErroredError,
  EvalGateFailedError,
  renderExploreHtml,
  renderExploreTable,
  type StoredExploreReport,
} from "@uwf/eval";
import type { ExploreResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";

/**
 * The outcome of every command that shows an exploration: the result, the HTML page written if asked
 * (`--html FILE`), the table, and the error its samples or gate imply: re-runs that errored or were
 * not made exit 1 (as eval's errored samples do, unless `--allow-errors`), a gate that did not hold 3.
 */
export function exploreOutcome(
  stored: StoredExploreReport,
  options: { html?: string; allowErrors?: boolean },
  context: CommandContext,
  extra: Pick<ExploreResult, "spentUsd" | "stoppedBy"> = {},
): CommandOutcome<ExploreResult> {
  const result: ExploreResult = { ...buildExploreResult(stored), ...extra };
  if (options.html !== undefined) {
    const file = resolve(context.cwd, options.html);
    writeFileSync(file, renderExploreHtml(result));
    result.html = file;
  }
  return {
    result,
    format: (value, color) => renderExploreTable(value, { color }),
    error: outcomeError(result, options.allowErrors === true),
  };
}

function outcomeError(result: ExploreResult, allowErrors: boolean): Error | undefined {
  const errored = result.steps.reduce((sum, step) => sum + step.errored, 0);
  const unstarted = result.steps.reduce((sum, step) => sum + step.unstarted, 0);
  if (!allowErrors && (errored > 0 || unstarted > 0)) {
    const first = result.steps.find((step) => step.errored > 0 || step.unstarted > 0);
    return new EvalErroredError(result.report, errored, unstarted, first === undefined ? null : `step ${first.step}`);
  }
  if (result.gateHeld === false) {
    const first = result.steps[0];
    const rate = first?.passRate ?? null;
    return new EvalGateFailedError(result.report, [
      {
        check: "min-pass-rate",
        held: false,
        detail: `re-runs from step ${first?.step ?? "?"}: pass rate ${rate === null ? "unknown" : rate.toFixed(2)} (${first?.passed ?? 0} of ${(first?.passed ?? 0) + (first?.failed ?? 0)} passed), below ${result.gate?.minPassRate.toFixed(2)}`,
      },
    ]);
  }
  return undefined;
}
