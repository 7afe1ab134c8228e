import { describe, expect, it } from "bun:test";
import type { EvalSample } from "@uwf/protocol";
import { buildResult } from "../../test/build-result.ts";
import { buildRepeats, buildSample, buildScore } from "../../test/build-sample.ts";
import { escapeMarkdown, renderEvalMarkdown } from "./render-eval-markdown.ts";

function suite(): EvalSample[] {
  return [
    ...buildRepeats(5, 5, { case: "login", variant: "v1" }),
    ...buildRepeats(5, 5, { case: "redirect", variant: "v1" }),
    ...buildRepeats(5, 5, { case: "login", variant: "v2" }),
    ...buildRepeats(5, 3, { case: "redirect", variant: "v2" }),
  ];
}

describe("renderEvalMarkdown", () => {
  it("heads a failed gate with ❌, the pass rate and its interval, and lists the failing checks", () => {
    const markdown = renderEvalMarkdown(buildResult(suite(), { gate: { minCasePassRate: 0.8 } }));
    const lines = markdown.split("\n");
    expect(lines[0]).toBe("### ❌ Gate did not hold — checkout: pass rate 0.90 [0.70, 0.97] over 20 samples");
    expect(lines[2]).toStartWith(
      "Report `01JREPORT0000000000000000A` · 2026-11-27T03:41:00.000Z · suite /work/suite.yaml · 18 passed, 2 failed, 0 errored",
    );
    expect(lines).toContain(
      '- **min-case-pass-rate**: case "redirect" of variant "v2": 3 of 5 repeats passed (0.60), below 0.80',
    );
  });

  it("heads a held gate with ✅, and a report without a gate with 📊", () => {
    expect(renderEvalMarkdown(buildResult(suite(), { gate: { minPassRate: 0.8 } }))).toStartWith("### ✅ Gate held — ");
    expect(renderEvalMarkdown(buildResult(suite()))).toStartWith("### 📊 Eval — ");
    const errored = [buildSample({ scores: [buildScore("ok", "errored")] })];
    expect(renderEvalMarkdown(buildResult(errored))).toStartWith("### ⚠️ Samples errored — ");
  });

  it("writes GFM tables with numbers aligned right", () => {
    const lines = renderEvalMarkdown(buildResult(suite(), { baselineVariant: "v1" })).split("\n");
    const header = lines.indexOf("#### Variants") + 2;
    expect(lines[header]).toBe(
      "| VARIANT | SAMPLES | PASSED | FAILED | ERRORED | PASS RATE | 95% CI | SCORE | STEPS p50/p90 | COST p50/p90 | DURATION p50/p90 |",
    );
    expect(lines[header + 1]).toBe("| --- | --: | --: | --: | --: | --: | --- | --: | --: | --: | --: |");
    expect(lines[header + 3]).toBe(
      "| v2 | 10 | 8 | 2 | 0 | 0.80 | \\[0.49, 0.94\\] | 0.80 | 3 / 3 | $0.0100 / $0.0100 | 2.0s / 2.0s |",
    );
    expect(lines).toContain("| redirect | v2 | 5 | 3 | 2 | 0 | 0.60 | \\[0.23, 0.88\\] | 5 | 1.00 | 0.00 |");
    expect(lines).toContain('| regressed | case "redirect" of variant "v2" | 1.00 | 0.60 | -0.40 |');
  });

  it("writes thread ids as code spans, every sample in a collapsed table", () => {
    const samples = suite();
    const markdown = renderEvalMarkdown(buildResult(samples));
    const failed = samples[18] as EvalSample;
    expect(markdown).toContain(`| \`${failed.thread}\` | redirect | v2 | 3 | failed | ok failed |`);
    expect(markdown).toContain("<details><summary>All 20 samples</summary>");
    for (const sample of samples) expect(markdown).toContain(`\`${sample.thread}\``);
  });

  it("escapes text an agent wrote so it cannot break a table or open HTML", () => {
    const sample = buildSample({ final: { note: "a | b <script>\nnext" } });
    const markdown = renderEvalMarkdown(buildResult([sample]));
    expect(markdown).toContain('| note | "a \\| b &lt;script&gt;\\\\nnext" ×1 |');
    expect(escapeMarkdown("*bold* `code` [link](x)")).toBe("\\*bold\\* \\`code\\` \\[link\\](x)");
  });
});
