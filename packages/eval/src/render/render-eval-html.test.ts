import { describe, expect, it } from "bun:test";
import { emptyEvalResult, sampleEvalResult } from "../../test/sample-eval-result.ts";
import { escapeHtml, html, jsonForScript } from "./html-template.ts";
import { renderEvalHtml } from "./render-eval-html.ts";

const HOSTILE_CASE = "</script><script>alert(1)</script>";
const HOSTILE_TEXT = `<img src=x onerror="window.injected=1"> <!-- & ' "`;

function chartData(page: string): { variants: string[]; cases: { labels: string[] } | null } {
  const match = /<script type="application\/json" id="eval-chart-data">([^<]*)<\/script>/.exec(page);
  if (match?.[1] === undefined) throw new Error("no chart data in the page");
  return JSON.parse(match[1]);
}

describe("renderEvalHtml", () => {
  it("renders a case named </script><script>alert(1)</script> and hostile reasons as inert text", () => {
    const page = renderEvalHtml(sampleEvalResult({ firstCase: HOSTILE_CASE, text: HOSTILE_TEXT }));
    expect(page).not.toContain("<script>alert(1)");
    expect(page).not.toContain("<img src=x");
    expect(page).not.toContain('onerror="');
    // The page's own three scripts and nothing else: the data, Chart.js and the chart drawing.
    expect(page.match(/<script\b/g)).toHaveLength(3);
    expect(page.match(/<\/script>/g)).toHaveLength(3);
    expect(page).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page).toContain("&lt;img src=x onerror=&quot;window.injected=1&quot;&gt; &lt;!-- &amp; &#39; &quot;");
    // The chart data reads back unchanged.
    expect(chartData(page).cases?.labels).toEqual([HOSTILE_CASE, "redirect"]);
  });

  it("is one offline file: Chart.js inlined, nothing loaded from elsewhere, only its own scripts allowed", () => {
    const page = renderEvalHtml(sampleEvalResult());
    expect(page).toContain("Chart.js v4");
    expect(page).not.toMatch(/\bsrc=|<link\b|@import|sourceMappingURL/);
    // The only addresses are in Chart.js's licence comments.
    expect(new Set(page.match(/https?:\/\/[^\s"')]+/g))).toEqual(
      new Set(["https://www.chartjs.org", "https://github.com/kurkle/color#readme"]),
    );
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/
      .exec(page)?.[1]
      ?.replaceAll("&#39;", "'");
    expect(policy).toStartWith("default-src 'none'; script-src 'sha256-");
    expect(policy?.match(/'sha256-/g)).toHaveLength(2);
  });

  it("shows the variants, cases with pass@k, assertions, gate checks, the comparison and every sample's thread id", () => {
    const result = sampleEvalResult();
    const page = renderEvalHtml(result);
    expect(page).toContain("<title>nightly review ok · uwf eval</title>");
    expect(page).toContain("gate did not hold");
    expect(page).toContain("pass rate 0.78 &lt; 0.90");
    expect(page).toContain("case login (candidate): 3 of 5 repeats passed");
    expect(page).toContain("outcome.status = &quot;approved&quot;");
    expect(page).toContain("./score.sh --strict");
    expect(page).toContain("variant candidate against variant baseline");
    expect(page).toContain('<h4 class="failed">Regressed cases</h4>');
    expect(page).toContain("pass@k, k = 1…n");
    // redirect under candidate: 2 of 5 passed, so pass@5 is 1.00 and pass^2 is 0.10.
    expect(page).toContain("0.40 · 0.70 · 0.90 · 1.00 · 1.00");
    expect(page).toContain("0.40 · 0.10 · 0.00 · 0.00 · 0.00");
    for (const sample of result.samples) {
      expect(page).toContain(`<code class="thread" title="uwf show ${sample.thread}">${sample.thread}</code>`);
    }
    for (const judge of result.samples.flatMap((sample) => sample.scores.flatMap((score) => score.judge ?? []))) {
      expect(page).toContain(judge.thread);
    }
    expect(page).toContain("scorer printed something else: ok");
    expect(chartData(page).variants).toEqual(["baseline", "candidate"]);
  });

  it("draws no per-case chart for selected threads that have no variants or cases", () => {
    const result = sampleEvalResult();
    const [first] = result.summary.variants;
    if (first === undefined) throw new Error("no variant");
    const [firstCase] = first.cases;
    if (firstCase === undefined) throw new Error("no case");
    const selection = {
      ...result,
      gate: null,
      gateHeld: null,
      gateChecks: [],
      comparisons: [],
      source: { kind: "selection" as const, threads: [], forksOf: null, workflow: "review", status: null },
      summary: { ...result.summary, variants: [{ ...first, variant: null, cases: [{ ...firstCase, case: null }] }] },
    };
    const page = renderEvalHtml(selection);
    expect(chartData(page)).toMatchObject({ variants: ["(all threads)"], cases: null });
    expect(page).toContain("no gate");
    expect(page).not.toContain('id="comparisons"');
    expect(page).toContain("workflow <code>review</code>");
  });

  it("renders a report with no samples, its rates shown as –", () => {
    const page = renderEvalHtml(emptyEvalResult());
    expect(page).toContain("0 samples");
    expect(page).toContain("pass rate <strong>–</strong>");
    expect(page).toContain("No assertions.");
    expect(chartData(page)).toMatchObject({ variants: [], outcomes: [], cases: null });
  });
});

describe("the HTML helpers", () => {
  it("escape text and attributes", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect(html`<p title="${'"><b>'}">${["<i>", 1, null]}</p>`.text).toBe(
      '<p title="&quot;&gt;&lt;b&gt;">&lt;i&gt;1</p>',
    );
  });

  it("put JSON in a script that no value can close, and read it back unchanged", () => {
    const value = { name: "</script><!-- \u2028 & >", list: ["</SCRIPT>"] };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
