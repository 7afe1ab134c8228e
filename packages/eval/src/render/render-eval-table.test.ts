import { describe, expect, it } from "bun:test";
import type { EvalSample } from "@uwf/protocol";
import { buildResult } from "../../test/build-result.ts";
import { buildRepeats, buildSample, buildScore } from "../../test/build-sample.ts";
import { compareReports } from "../compare/compare-summaries.ts";
import { summarizeSamples } from "../summary/summarize-samples.ts";
import { renderEvalDiff, renderEvalList, renderEvalTable } from "./render-eval-table.ts";

/** v1 passes everything; v2 passes 3 of 5 on "redirect" and has one errored sample. */
function suiteSamples(): EvalSample[] {
  const samples: EvalSample[] = [
    ...buildRepeats(5, 5, { case: "login", variant: "v1" }),
    ...buildRepeats(5, 5, { case: "redirect", variant: "v1" }),
    ...buildRepeats(5, 5, { case: "login", variant: "v2" }),
    ...buildRepeats(5, 3, { case: "redirect", variant: "v2" }),
  ].map((sample, index) => ({
    ...sample,
    costUsd: sample.variant === "v1" ? 0.02 : 0.01,
    durationMs: 1000 + index * 100,
    final: { verdict: sample.verdict === "passed" ? "approved" : "rejected", confidence: index % 2 === 0 ? 0.5 : 1 },
  }));
  samples.push(
    buildSample({ case: "login", variant: "v2", repeat: 5, scores: [buildScore("ok", "errored", "scorer exited 2")] }),
  );
  return samples;
}

/** The line of `text` that starts with `start` (after colour and spaces). */
function line(text: string, start: string): string {
  const found = text
    .split("\n")
    .map((entry) => entry.replace(/\s+/g, " ").trim())
    .find((entry) => entry.startsWith(start));
  if (found === undefined) throw new Error(`no line starts with ${JSON.stringify(start)} in:\n${text}`);
  return found;
}

describe("renderEvalTable", () => {
  const samples = suiteSamples();
  const result = buildResult(samples, { gate: { minPassRate: 0.8, passK: 5 }, baselineVariant: "v1" });
  const text = renderEvalTable(result, { color: false });

  it("heads the report with its counts, pass rate and interval, and the gate's verdict", () => {
    expect(line(text, "eval")).toBe(
      'eval "checkout" · report 01JREPORT0000000000000000A · 2026-11-27 03:41:00 · suite /work/suite.yaml',
    );
    expect(line(text, "21 samples")).toBe(
      "21 samples: 18 passed, 2 failed, 1 errored · pass rate 0.90 [0.70, 0.97] · mean score 0.90",
    );
    expect(line(text, "✗ gate")).toBe("✗ gate did not hold: pass-k, errors");
  });

  it("has a row per variant with counts, pass rate, interval, score and percentiles", () => {
    expect(line(text, "v1 ")).toBe("v1 10 10 0 0 1.00 [0.72, 1.00] 1.00 3 / 3 $0.0200 / $0.0200 1.4s / 1.8s");
    expect(line(text, "v2 ")).toBe("v2 11 8 2 1 0.80 [0.49, 0.94] 0.80 3 / 3 $0.0100 / $0.0100 2.4s / 2.8s");
  });

  it("has a row per case with pass@K and pass^K at the gate's K", () => {
    expect(line(text, "CASE")).toBe("CASE VARIANT SAMPLES PASSED FAILED ERRORED PASS RATE 95% CI K PASS@K PASS^K");
    expect(line(text, "redirect v2")).toBe("redirect v2 5 3 2 0 0.60 [0.23, 0.88] 5 1.00 0.00");
  });

  it("shows each assertion's mean per variant, outcomes, paths and final fields", () => {
    expect(line(text, "ok ")).toBe("ok outcome 1.00 (10/10) 0.80 (8/10, 1 errored)");
    expect(line(text, "v2 ended")).toBe("v2 ended approved reviewer 11 1.00");
    expect(line(text, "v1 10 planner")).toBe("v1 10 planner → coder → reviewer");
    expect(line(text, "v2 verdict")).toBe('v2 verdict "approved" ×8, "rejected" ×2');
    expect(line(text, "v1 confidence")).toBe("v1 confidence min 0.5 · mean 0.75 · max 1 (10)");
  });

  it("lists the failed and errored samples by thread, saying why", () => {
    const errored = samples[20] as EvalSample;
    expect(line(text, errored.thread)).toBe(
      `${errored.thread} login v2 5 errored assertion "ok" errored: scorer exited 2`,
    );
    expect(text).toContain(`${(samples[18] as EvalSample).thread}  redirect  v2`);
  });

  it("lists the gate's checks with ✓ and ✗", () => {
    expect(line(text, "✓ min-pass-rate")).toBe("✓ min-pass-rate pass rate 0.90 (18 of 20 passed), at least 0.80");
    expect(line(text, "✗ pass-k")).toBe(
      '✗ pass-k case "redirect" of variant "v2": 3 of its first 5 repeats passed (repeat 3 failed)',
    );
    expect(line(text, "✗ errors")).toContain("1 sample errored");
  });

  it("compares with the baseline variant: signed deltas and the regressed case", () => {
    expect(line(text, 'variant "v2" against')).toBe('variant "v2" against variant "v1" (baseline)');
    expect(line(text, "pass rate 1.00")).toBe("pass rate 1.00 0.80 -0.20");
    expect(line(text, "cost p50")).toBe("cost p50 $0.0200 $0.0100 -$0.0100");
    expect(line(text, "errored 0")).toBe("errored 0 1 +1");
    expect(line(text, "regressed")).toBe('regressed case "redirect" of variant "v2" 1.00 0.60 -0.40');
  });

  it("colours only when asked", () => {
    expect(text).not.toContain("\u001b[");
    const colored = renderEvalTable(result, { color: true });
    expect(colored).toContain("\u001b[31m✗\u001b[39m");
    expect(colored).toContain("\u001b[32m✓\u001b[39m");
  });

  it("lists at most samplesShown failed samples, saying how many more", () => {
    const short = renderEvalTable(result, { color: false, samplesShown: 1 });
    expect(line(short, "…")).toBe("… and 2 more (--json lists every sample)");
  });

  it("keeps a report of selected threads short: no variant or case columns, no cases table for single samples", () => {
    const selected = renderEvalTable(
      {
        ...buildResult([buildSample(), buildSample()]),
        source: {
          kind: "selection",
          threads: [],
          forksOf: { thread: "01JTEST0000000000000000001", recursive: true },
          workflow: null,
          status: null,
        },
      },
      { color: false },
    );
    expect(line(selected, "eval")).toContain("forks of 01JTEST0000000000000000001 (recursive)");
    expect(line(selected, "VARIANT")).toBe(
      "VARIANT SAMPLES PASSED FAILED ERRORED PASS RATE 95% CI SCORE STEPS p50/p90 COST p50/p90 DURATION p50/p90",
    );
    expect(line(selected, "ASSERTION")).toBe("ASSERTION KIND MEAN");
    expect(line(selected, "STATUS")).toBe("STATUS $STATUS ENDED BY COUNT SHARE");
    expect(selected).not.toContain("Gate");
    expect(selected).not.toContain("Failed and errored");
  });
});

describe("renderEvalList", () => {
  it("has a row per report with its samples and pass rate", () => {
    const text = renderEvalList(
      {
        reports: [
          {
            report: "R2",
            kind: "eval",
            address: "0AAAAAAAAAAAA",
            name: "nightly",
            createdAt: "2026-11-27T03:00:00.000Z",
            samples: 20,
            passRate: 0.85,
          },
          {
            report: "R1",
            kind: "eval",
            address: "0AAAAAAAAAAAB",
            name: "forks",
            createdAt: "2026-11-26T03:00:00.000Z",
            samples: 3,
            passRate: null,
          },
        ],
        total: 5,
      },
      { color: false },
    );
    expect(line(text, "REPORT")).toBe("REPORT NAME CREATED SAMPLES PASS RATE");
    expect(line(text, "R2")).toBe("R2 nightly 2026-11-27 03:00:00 20 0.85");
    expect(line(text, "R1")).toBe("R1 forks 2026-11-26 03:00:00 3 –");
    expect(line(text, "2 of")).toBe("2 of 5 reports");
  });

  it("says when there are none", () => {
    expect(renderEvalList({ reports: [], total: 0 }, { color: false })).toBe("no eval reports");
  });
});

describe("renderEvalDiff", () => {
  it("heads with the verdict and shows each comparison with the regressed case", () => {
    const before = summarizeSamples(buildRepeats(5, 5, { case: "redirect" }), [{ name: "ok" }]);
    const after = summarizeSamples(buildRepeats(5, 2, { case: "redirect" }), [{ name: "ok" }]);
    const text = renderEvalDiff(
      {
        baseline: "R1",
        current: "R2",
        comparisons: compareReports({ report: "R1", summary: before }, { report: "R2", summary: after }),
      },
      { color: false },
    );
    expect(line(text, "report R2")).toBe("report R2 against report R1 (baseline)");
    expect(line(text, "1 case")).toBe("1 case regressed");
    expect(line(text, "pass rate")).toBe("pass rate 1.00 0.40 -0.60");
    expect(line(text, "regressed case")).toBe('regressed case "redirect" 1.00 0.40 -0.60');
  });
});

describe("renderEvalTable on a narrow terminal", () => {
  const samples = suiteSamples();
  const result = buildResult(samples, { gate: { minPassRate: 0.8, passK: 5 } });

  it("leaves out the least needed columns first, so the rows fit", () => {
    const wide = renderEvalTable(result, { color: false, width: 100 });
    expect(line(wide, "VARIANT")).toBe("VARIANT PASSED FAILED ERRORED PASS RATE 95% CI COST p50/p90 DURATION p50/p90");
    expect(line(wide, "v2 ")).toBe("v2 8 2 1 0.80 [0.49, 0.94] $0.0100 / $0.0100 2.4s / 2.8s");
    const narrow = renderEvalTable(result, { color: false, width: 80 });
    expect(line(narrow, "VARIANT")).toBe("VARIANT PASSED FAILED ERRORED PASS RATE 95% CI COST p50/p90");
    expect(line(narrow, "CASE")).toBe("CASE VARIANT PASSED FAILED ERRORED PASS RATE K PASS@K PASS^K");
    for (const entry of narrow.split("\n").slice(3)) expect(entry.length).toBeLessThanOrEqual(80);
  });

  it("cuts long details to the width", () => {
    const text = renderEvalTable(result, { color: false, width: 60 });
    const details = text.split("\n").filter((entry) => /^[✓✗] {2}/.test(entry));
    expect(details.length).toBe(3);
    for (const detail of details) expect(detail.length).toBeLessThanOrEqual(60);
    expect(details.some((detail) => detail.endsWith("…"))).toBe(true);
  });
});

describe("renderEvalTable of no samples", () => {
  it("says there is no pass rate, without an empty variants table", () => {
    const text = renderEvalTable(buildResult([], { gate: { minPassRate: 0.5 } }), { color: false });
    expect(line(text, "0 samples")).toBe("0 samples: 0 passed, 0 failed, 0 errored · pass rate – · mean score –");
    expect(text).not.toContain("Variants");
    expect(line(text, "✗ min-pass-rate")).toBe("✗ min-pass-rate no pass rate to hold to 0.50: no samples");
  });
});

describe("runs that did not start", () => {
  it("are listed apart from the samples, with why, in the table and in Markdown", async () => {
    const { renderEvalMarkdown } = await import("./render-eval-markdown.ts");
    const result = {
      ...buildResult(suiteSamples()),
      unstarted: [{ case: "login", variant: "v3", repeat: 0, error: "no fixture folder /work/fixtures/gone" }],
    };
    const text = renderEvalTable(result, { color: false });
    expect(text).toContain("Runs that did not start");
    expect(line(text, "login")).toBeDefined();
    expect(text).toContain("no fixture folder /work/fixtures/gone");
    expect(renderEvalMarkdown(result)).toContain("| login | v3 | 0 | no fixture folder /work/fixtures/gone |");
  });
});
