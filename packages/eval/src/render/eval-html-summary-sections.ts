import type { EvalAssertion, EvalGroupSummary, EvalResult, EvalVariantSummary } from "@uwf/protocol";
import { formatInterval, formatRate } from "../format/format-number.ts";
import { caseLabel, formatCost, formatDuration, formatNumber, variantLabel } from "./format-eval-values.ts";
import { type HtmlFragment, html, table } from "./html-template.ts";

function countCells(group: EvalGroupSummary): HtmlFragment {
  return html`<td class="number">${group.samples}</td><td class="number passed">${group.passed}</td><td class="number failed">${group.failed}</td><td class="number errored">${group.errored}</td><td class="number">${formatRate(group.passRate)}</td><td class="number">${formatInterval(group.interval)}</td>`;
}

const COUNT_HEADERS = html`<th class="number">samples</th><th class="number">passed</th><th class="number">failed</th><th class="number">errored</th><th class="number">pass rate</th><th class="number">95% interval</th>`;

/** Samples, verdicts, pass rates and the percentiles of steps, tokens, cost and duration, overall and per variant. */
export function variantsSection(result: EvalResult): HtmlFragment {
  const row = (label: string, group: EvalGroupSummary, strong: boolean) =>
    html`<tr><th scope="row">${strong ? html`<strong>${label}</strong>` : label}</th>${countCells(group)}<td class="number">${formatNumber(group.steps.p50)} / ${formatNumber(group.steps.p90)}</td><td class="number">${formatNumber(group.tokens.p50)} / ${formatNumber(group.tokens.p90)}</td><td class="number">${formatCost(group.costUsd.p50)} / ${formatCost(group.costUsd.p90)} / ${formatCost(group.costUsd.max)}</td><td class="number">${formatCost(group.costUsd.total)}</td><td class="number">${formatDuration(group.durationMs.p50)} / ${formatDuration(group.durationMs.p90)} / ${formatDuration(group.durationMs.max)}</td></tr>`;
  const head = html`<tr><th>variant</th>${COUNT_HEADERS}<th class="number">steps p50 / p90</th><th class="number">tokens p50 / p90</th><th class="number">cost p50 / p90 / max</th><th class="number">cost total</th><th class="number">duration p50 / p90 / max</th></tr>`;
  const rows = result.summary.variants.map((variant) => row(variantLabel(variant.variant), variant, false));
  if (result.summary.variants.length !== 1) rows.push(row("all", result.summary.overall, true));
  return html`<h2 id="variants">Variants</h2>${table(head, rows)}<p class="note">The pass rate leaves errored samples out (counts them as failed with --allow-errors); the interval is the 95% Wilson score interval.</p>`;
}

function describeAssertion(assertion: EvalAssertion): string {
  switch (assertion.kind) {
    case "jsonata":
      return assertion.expr;
    case "outcome":
      return `outcome: ${assertion.status}`;
    case "status":
      return `status: ${assertion.status}`;
    case "command":
      return typeof assertion.command === "string" ? assertion.command : assertion.command.join(" ");
    case "judge":
      return [
        `workflow ${assertion.workflow}`,
        assertion.role && `role ${assertion.role}`,
        assertion.agent && `agent ${assertion.agent}`,
      ]
        .filter((part) => typeof part === "string" && part !== "")
        .join(", ");
  }
}

/** Each assertion, what it checks, and its mean score per variant (with its passed/failed/errored counts). */
export function assertionsSection(result: EvalResult): HtmlFragment {
  if (result.assertions.length === 0)
    return html`<h2 id="assertions">Assertions</h2><p class="note">No assertions.</p>`;
  const variants = result.summary.variants;
  const head = html`<tr><th>assertion</th><th>kind</th><th class="number">weight</th><th>checks</th>${variants.map((variant) => html`<th class="number">${variantLabel(variant.variant)}: mean (pass/fail/err)</th>`)}</tr>`;
  const rows = result.assertions.map((assertion) => {
    const cells = variants.map((variant) => {
      const summary = variant.assertions.find((entry) => entry.name === assertion.name);
      if (summary === undefined) return html`<td class="number">–</td>`;
      return html`<td class="number">${formatRate(summary.mean)} (<span class="passed">${summary.passed}</span>/<span class="failed">${summary.failed}</span>/<span class="errored">${summary.errored}</span>)</td>`;
    });
    return html`<tr><th scope="row">${assertion.name}</th><td>${assertion.kind}</td><td class="number">${assertion.weight ?? 1}</td><td><code>${describeAssertion(assertion)}</code></td>${cells}</tr>`;
  });
  return html`<h2 id="assertions">Assertions</h2>${table(head, rows)}`;
}

function estimates(
  passAtK: readonly { k: number; passAtK: number; passHatK: number }[],
  pick: "passAtK" | "passHatK",
): string {
  return passAtK.length === 0 ? "–" : passAtK.map((entry) => formatRate(entry[pick])).join(" · ");
}

/** Per variant, each case: its counts, pass rate and interval, and pass@k / pass^k with repeats. */
export function casesSection(result: EvalResult): HtmlFragment {
  const rows = result.summary.variants.flatMap((variant: EvalVariantSummary) =>
    variant.cases.map(
      (summary) =>
        html`<tr><th scope="row">${caseLabel(summary.case)}</th><td>${variantLabel(variant.variant)}</td>${countCells(summary)}<td class="number">${estimates(summary.passAtK, "passAtK")}</td><td class="number">${estimates(summary.passAtK, "passHatK")}</td></tr>`,
    ),
  );
  if (rows.length === 0) return html``;
  const head = html`<tr><th>case</th><th>variant</th>${COUNT_HEADERS}<th class="number">pass@k, k = 1…n</th><th class="number">pass^k, k = 1…n</th></tr>`;
  return html`<h2 id="cases">Cases</h2>${table(head, rows)}<p class="note">pass@k: the chance that at least one of k repeats passes; pass^k: that all k pass (unbiased estimates from the n repeats).</p>`;
}

/** Per variant: how the samples ended, their most frequent role paths, and the final reply's fields. */
export function outcomesSection(result: EvalResult): HtmlFragment {
  const parts = result.summary.variants.map((variant) => {
    const outcomes = variant.outcomes.map(
      (outcome) =>
        html`<tr><td>${outcome.status}</td><td>${outcome.outcome ?? "–"}</td><td>${outcome.role ?? "–"}</td><td class="number">${outcome.count}</td></tr>`,
    );
    const paths = variant.paths.map(
      (entry) => html`<tr><td><code>${entry.path.join(" → ")}</code></td><td class="number">${entry.count}</td></tr>`,
    );
    const fields = variant.fields.map((field) =>
      field.kind === "numeric"
        ? html`<tr><th scope="row">${field.field}</th><td>numeric (${field.count})</td><td>min ${formatNumber(field.min)}, mean ${formatNumber(field.mean)}, max ${formatNumber(field.max)}</td></tr>`
        : html`<tr><th scope="row">${field.field}</th><td>categorical</td><td>${field.values.map((entry, index) => html`${index === 0 ? "" : ", "}<code>${entry.value}</code> × ${entry.count}`)}${field.other > 0 ? html`, other × ${field.other}` : ""}</td></tr>`,
    );
    return html`<h3>${variantLabel(variant.variant)}</h3>
${outcomes.length === 0 ? "" : table(html`<tr><th>status</th><th>final $status</th><th>ending role</th><th class="number">samples</th></tr>`, outcomes)}
${paths.length === 0 ? "" : table(html`<tr><th>role path</th><th class="number">samples</th></tr>`, paths)}
${fields.length === 0 ? "" : table(html`<tr><th>final field</th><th>kind</th><th>values</th></tr>`, fields)}`;
  });
  return html`<h2 id="outcomes">Outcomes, paths and final fields</h2>${parts}`;
}
