import type { EvalComparison, EvalResult, EvalSample } from "@uwf/protocol";
import { formatRate } from "../format/format-number.ts";
import { caseLabel, formatCost, formatDuration, formatMetric, formatNumber } from "./format-eval-values.ts";
import { type HtmlFragment, html, table } from "./html-template.ts";

/** Runs of a suite that never got a thread (a bad workflow, a missing fixture): errors, not samples. */
export function unstartedSection(result: EvalResult): HtmlFragment {
  if (result.unstarted.length === 0) return html``;
  const rows = result.unstarted.map(
    (run) =>
      html`<tr><th scope="row">${run.case === null ? "–" : run.case}</th><td>${run.variant === null ? "–" : run.variant}</td><td class="number">${run.repeat === null ? "–" : run.repeat}</td><td class="errored">${run.error}</td></tr>`,
  );
  return html`<h2 id="unstarted">Runs that did not start</h2>${table(html`<tr><th>case</th><th>variant</th><th class="number">repeat</th><th>error</th></tr>`, rows)}`;
}

/** The gate's checks and whether each held. */
export function gateSection(result: EvalResult): HtmlFragment {
  if (result.gateChecks.length === 0) return html``;
  const rows = result.gateChecks.map(
    (check) =>
      html`<tr><th scope="row">${check.check}</th><td class="${check.held ? "held" : "not-held"}">${check.held ? "held" : "did not hold"}</td><td>${check.detail}</td></tr>`,
  );
  return html`<h2 id="gate">Gate</h2>${table(html`<tr><th>check</th><th>result</th><th>detail</th></tr>`, rows)}`;
}

function side(entry: { report: string | null; variant: string | null }): string {
  return [
    entry.report === null ? null : `report ${entry.report}`,
    entry.variant === null ? null : `variant ${entry.variant}`,
  ]
    .filter((part) => part !== null)
    .join(", ");
}

function formatDelta(delta: number | null): string {
  if (delta === null) return "–";
  const text = formatMetric(delta);
  return delta > 0 ? `+${text}` : text;
}

function caseChanges(title: string, className: string, changes: EvalComparison["regressed"]): HtmlFragment {
  if (changes.length === 0) return html`<p class="note">${title}: none.</p>`;
  const rows = changes.map(
    (change) =>
      html`<tr><th scope="row">${caseLabel(change.case)}</th><td>${change.variant === null ? "–" : change.variant}</td><td class="number">${formatRate(change.baseline)}</td><td class="number ${className}">${formatRate(change.current)}</td></tr>`,
  );
  return html`<h4 class="${className}">${title}</h4>${table(html`<tr><th>case</th><th>variant</th><th class="number">baseline pass rate</th><th class="number">current pass rate</th></tr>`, rows)}`;
}

/** Each comparison with a baseline: the metrics' deltas and the cases that regressed or improved. */
export function comparisonsSection(result: EvalResult): HtmlFragment {
  if (result.comparisons.length === 0) return html``;
  const parts = result.comparisons.map((comparison) => {
    const rows = comparison.metrics.map(
      (metric) =>
        html`<tr><th scope="row">${metric.metric}</th><td class="number">${formatMetric(metric.baseline)}</td><td class="number">${formatMetric(metric.current)}</td><td class="number">${formatDelta(metric.delta)}</td></tr>`,
    );
    return html`<h3>${side(comparison.current) || "current"} against ${side(comparison.baseline) || "baseline"}</h3>
${table(html`<tr><th>metric</th><th class="number">baseline</th><th class="number">current</th><th class="number">delta</th></tr>`, rows)}
${caseChanges("Regressed cases", "failed", comparison.regressed)}
${caseChanges("Improved cases", "passed", comparison.improved)}`;
  });
  return html`<h2 id="comparisons">Against the baseline</h2>${parts}`;
}

function scoreList(sample: EvalSample): HtmlFragment {
  const items = sample.scores.map((score) => {
    const detail = score.error ?? score.reason;
    return html`<li><span class="${score.verdict}">${score.verdict}</span> ${score.assertion}${score.score === null ? "" : ` (${formatRate(score.score)})`}${detail === null ? "" : html`: ${detail}`}${score.judge === null ? "" : html` · judge <code class="thread" title="uwf show ${score.judge.thread}">${score.judge.thread}</code>`}</li>`;
  });
  if (sample.error !== null) items.unshift(html`<li><span class="errored">errored</span>: ${sample.error}</li>`);
  return html`<ul class="scores">${items}</ul>`;
}

/** Every scored thread: its id (to paste into `uwf show`), where it came from, how it ended, and each assertion's verdict. */
export function samplesSection(result: EvalResult): HtmlFragment {
  const rows = result.samples.map(
    (sample) =>
      html`<tr id="sample-${sample.thread}"><td><code class="thread" title="uwf show ${sample.thread}">${sample.thread}</code><br><span class="note mono">${sample.head}</span></td><td>${sample.case === null ? "–" : sample.case}</td><td>${sample.variant === null ? "–" : sample.variant}</td><td class="number">${sample.repeat === null ? "–" : sample.repeat}</td><td>${sample.status}${sample.outcome === null ? "" : html`<br><span class="note">${sample.outcome.status ?? "no $status"} · ${sample.outcome.role}</span>`}</td><td class="number">${sample.steps}</td><td class="number">${formatNumber(sample.tokens)}</td><td class="number">${formatCost(sample.costUsd)}</td><td class="number">${formatDuration(sample.durationMs)}</td><td class="${sample.verdict}">${sample.verdict}</td><td class="number">${formatRate(sample.score)}</td><td>${scoreList(sample)}</td></tr>`,
  );
  const head = html`<tr><th>thread · head</th><th>case</th><th>variant</th><th class="number">repeat</th><th>status · outcome</th><th class="number">steps</th><th class="number">tokens</th><th class="number">cost</th><th class="number">duration</th><th>verdict</th><th class="number">score</th><th>assertions</th></tr>`;
  return html`<h2 id="samples">Samples</h2><p class="note">Each thread id can be pasted into <code>uwf show ID</code> or <code>uwf log ID</code>.</p>${table(head, rows)}`;
}
