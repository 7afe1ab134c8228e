import type { EvalResult, EvalSample } from "@uwf/protocol";
import { formatCost, formatDuration, formatRate, formatRateWithInterval, MISSING } from "../format/format-number.ts";
import { buildReportTables, describeSampleFailure } from "./build-report-tables.ts";
import { describeSource } from "./render-eval-table.ts";
import type { Cell, ReportTable } from "./report-table.ts";

/**
 * A report as GitHub-flavoured Markdown to paste into a pull request: a headline verdict (✅ the gate
 * held, ❌ it did not, ⚠️ samples errored, 📊 no gate), the report's id and counts, the gate's failing
 * checks, the same tables as the terminal's (every failed and errored sample listed), and every sample in
 * a collapsed `<details>` table. Thread ids are code spans; text from agents is escaped so it cannot break
 * the tables. Numbers as format-number.ts writes them: rates as `0.80`.
 */
export function renderEvalMarkdown(result: EvalResult): string {
  const { overall } = result.summary;
  const erroredCheck = result.gateChecks.find((check) => check.check === "errors" && !check.held);
  const mark =
    result.gateHeld === true
      ? "✅ Gate held"
      : result.gateHeld === false
        ? "❌ Gate did not hold"
        : erroredCheck !== undefined
          ? "⚠️ Samples errored"
          : "📊 Eval";
  const lines = [
    `### ${mark} — ${escapeMarkdown(result.name)}: pass rate ${formatRateWithInterval(overall.passRate, overall.interval)} over ${overall.samples} samples`,
    "",
    `Report \`${result.report}\` · ${result.createdAt} · ${escapeMarkdown(describeSource(result.source))} · ${overall.passed} passed, ${overall.failed} failed, ${overall.errored} errored · mean score ${formatRate(overall.meanScore)}${result.summary.allowErrors === true ? " · errored samples counted as failed" : ""}`,
  ];
  const failing = result.gateChecks.filter((check) => !check.held);
  if (failing.length > 0)
    lines.push("", ...failing.map((check) => `- **${check.check}**: ${escapeMarkdown(check.detail)}`));
  const tables = buildReportTables(result, { samplesShown: Number.POSITIVE_INFINITY });
  for (const table of tables) lines.push("", renderMarkdownTable(table));
  if (result.samples.length > 0) {
    lines.push(
      "",
      `<details><summary>All ${result.samples.length} samples</summary>`,
      "",
      renderMarkdownTable(allSamplesTable(result.samples)),
      "",
      "</details>",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Characters that would end a cell, start markup or HTML, written so they show as themselves. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r?\n/g, " ")
    .replace(/[\\`*_[\]|~]/g, (character) => `\\${character}`)
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

function renderCell(value: Cell): string {
  if (value.code === true) return `\`${value.text.replace(/`/g, "")}\``;
  return escapeMarkdown(value.text);
}

/** A report table as a titled GFM table, numbers aligned right. */
export function renderMarkdownTable(table: ReportTable): string {
  const header = table.header.map((name) => (name === "" ? " " : escapeMarkdown(name)));
  const rule = table.header.map((_, column) => (table.align[column] === "right" ? "--:" : "---"));
  const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [
    `#### ${escapeMarkdown(table.title)}`,
    "",
    row(header),
    row(rule),
    ...table.rows.map((cells) => row(cells.map(renderCell))),
    ...(table.note === undefined ? [] : ["", escapeMarkdown(table.note)]),
  ].join("\n");
}

function allSamplesTable(samples: readonly EvalSample[]): ReportTable {
  return {
    title: "Samples",
    header: [
      "THREAD",
      "CASE",
      "VARIANT",
      "REPEAT",
      "VERDICT",
      "SCORE",
      "STATUS",
      "$STATUS",
      "STEPS",
      "COST",
      "DURATION",
      "WHY",
    ],
    align: ["left", "left", "left", "right", "left", "right", "left", "left", "right", "right", "right", "left"],
    rows: samples.map((sample) => [
      { text: sample.thread, code: true },
      { text: sample.case ?? MISSING },
      { text: sample.variant ?? MISSING },
      { text: sample.repeat === null ? MISSING : String(sample.repeat) },
      { text: sample.verdict },
      { text: formatRate(sample.score) },
      { text: sample.status },
      { text: sample.outcome?.status ?? MISSING },
      { text: String(sample.steps) },
      { text: formatCost(sample.costUsd) },
      { text: formatDuration(sample.durationMs) },
      { text: sample.verdict === "passed" ? "" : describeSampleFailure(sample) },
    ]),
  };
}
