import { describe, expect, it } from "bun:test";
import type { EvalSample, ExploreReportNode } from "@uwf/protocol";
import { buildSample, buildScore } from "../../test/build-sample.ts";
import { renderExploreHtml } from "../render/render-explore-html.ts";
import { buildExploreResult } from "./build-explore-result.ts";

const ADDRESS = "2W53JPNXF556H";

function samples(passed: number, failed: number, errored = 0): EvalSample[] {
  return [
    ...Array.from({ length: passed }, () => buildSample({ scores: [buildScore("ok", "passed")] })),
    ...Array.from({ length: failed }, () => buildSample({ scores: [buildScore("ok", "failed")] })),
    ...Array.from({ length: errored }, () => buildSample({ scores: [buildScore("ok", "errored")] })),
  ];
}

function report(
  steps: Array<{ step: number; role: string; samples: EvalSample[] }>,
  original: "passed" | "failed",
  gate: ExploreReportNode["gate"] = null,
) {
  const node: ExploreReportNode = {
    type: "explore-report/1",
    name: "explore <script>",
    createdAt: "2026-12-07T19:00:00.000Z",
    thread: "01JTEST0000000000000000000",
    head: ADDRESS,
    samplesPerStep: 5,
    assertions: [{ name: "ok", kind: "status", status: "ended" }],
    original: buildSample({ scores: [buildScore("ok", original)] }),
    steps: steps.map((step) => ({ ...step, from: ADDRESS, unstarted: [] })),
    gate,
    rescoredFrom: null,
  };
  return {
    entry: { id: "01JREPORT00000000000000000", address: ADDRESS, name: node.name, createdAt: node.createdAt },
    node,
  };
}

describe("buildExploreResult", () => {
  it("gives each step its pass rate, Wilson interval and effect, and marks the largest effect decisive", () => {
    const result = buildExploreResult(
      report(
        [
          { step: 1, role: "plan", samples: samples(1, 4) },
          { step: 2, role: "decide", samples: samples(1, 4) },
          { step: 3, role: "write", samples: samples(5, 0) },
        ],
        "passed",
      ),
    );
    expect(result.steps.map((step) => [step.step, step.passRate, step.effect, step.decisive])).toEqual([
      [1, 0.2, 0, false],
      [2, 0.2, 0.8, true],
      [3, 1, 0, false],
    ]);
    expect(result.decisive).toEqual([2]);
    const [low, high] = result.steps[2]?.interval ?? [];
    expect(low).toBeCloseTo(0.5655, 3);
    expect(high).toBe(1);
  });

  it("takes the last step's effect from the original verdict, leaves errored re-runs out, and keeps ties", () => {
    const result = buildExploreResult(
      report(
        [
          { step: 4, role: "a", samples: samples(2, 2, 3) },
          { step: 6, role: "b", samples: samples(4, 0) },
        ],
        "failed",
      ),
    );
    // Step 4's rate counts 2 of 4 (3 errored left out); its effect runs to the next explored step, 6.
    expect(result.steps.map((step) => [step.passRate, step.effect, step.errored])).toEqual([
      [0.5, 0.5, 3],
      [1, -1, 0],
    ]);
    expect(result.decisive).toEqual([6]);
    expect(result.original.verdict).toBe("failed");
  });

  it("names no step decisive when none moved the chances, and gates on the first explored step", () => {
    const flat = buildExploreResult(
      report([{ step: 1, role: "a", samples: samples(3, 0) }], "passed", { minPassRate: 0.9 }),
    );
    expect(flat.decisive).toEqual([]);
    expect(flat.gateHeld).toBe(true);
    const low = buildExploreResult(
      report([{ step: 1, role: "a", samples: samples(1, 2) }], "passed", { minPassRate: 0.5 }),
    );
    expect(low.gateHeld).toBe(false);
    expect(low.decisive).toEqual([1]);
  });
});

describe("renderExploreHtml", () => {
  it("writes one page with the chart drawn as SVG, no script, and every report string escaped", () => {
    const page = renderExploreHtml(
      buildExploreResult(
        report(
          [
            { step: 1, role: "<b>plan</b>", samples: samples(1, 1) },
            { step: 2, role: "decide", samples: samples(2, 0) },
          ],
          "passed",
        ),
      ),
    );
    expect(page).toStartWith("<!DOCTYPE html>");
    // The policy is an attribute: its quotes are escaped, as the browser reads them back.
    expect(page).toContain("default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;");
    expect(page).not.toContain("<script");
    expect(page).not.toContain("<b>plan</b>");
    expect(page).toContain("&lt;b&gt;plan&lt;/b&gt;");
    expect(page).toContain("explore &lt;script&gt;");
    expect(page.match(/<circle class="point[^"]*"/g)?.length).toBe(2);
    expect(page).toContain('<circle class="point decisive"');
    expect(page.match(/<line class="interval"/g)?.length).toBe(2);
  });
});
