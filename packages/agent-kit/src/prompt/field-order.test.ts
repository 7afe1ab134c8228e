import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalizeJson } from "@uwf/cas";
import type { WorkflowNode } from "@uwf/protocol";
import { buildReplySchema, FIELD_ORDER_KEYWORD, parseWorkflowSource, restoreWorkflowFieldOrder } from "@uwf/workflow";
import { safeExtractFrontmatter } from "../extract/extract-frontmatter.ts";
import { buildContinuationPrompt } from "./build-continuation-prompt.ts";
import { buildRetryPrompt } from "./build-retry-prompt.ts";

/** Field orders the sorted canonical JSON would lose: a role, a nested object, and a role already in order. */
const SOURCE = readFileSync(join(import.meta.dir, "../../test/fixtures/workflows/judged.yaml"), "utf8");

/** The workflow as a later step reads it back from the store: canonical JSON, keys sorted. */
function stored(): WorkflowNode {
  const { workflow } = parseWorkflowSource(SOURCE, { file: "judged.yaml" });
  return JSON.parse(canonicalizeJson(workflow)) as WorkflowNode;
}

describe("the author's field order", () => {
  it("is recorded where it is not the sorted order, and survives canonical JSON", () => {
    const workflow = stored();
    const judge = workflow.roles.judge?.frontmatter as Record<string, unknown>;
    expect(Object.keys(judge.properties as object)).toEqual(["details", "reasoning", "verdict"]);
    expect(judge[FIELD_ORDER_KEYWORD]).toEqual(["reasoning", "verdict", "details"]);
    const details = (judge.properties as Record<string, Record<string, unknown>>).details;
    expect(details?.[FIELD_ORDER_KEYWORD]).toEqual(["zeta", "alpha"]);
    // Already sorted: nothing recorded, so such a workflow keeps its address.
    expect(workflow.roles.sorted?.frontmatter).not.toHaveProperty(FIELD_ORDER_KEYWORD);
  });

  it("lists the fields in the prompt and the example reply in the author's order", () => {
    const prompt = buildContinuationPrompt({
      workflow: stored(),
      roleName: "judge",
      task: "T",
      history: [],
      edgePrompt: "Judge.",
    });
    const fields = prompt.slice(prompt.indexOf("## Fields"), prompt.indexOf("## Status"));
    expect(fields.indexOf("`reasoning`")).toBeLessThan(fields.indexOf("`verdict`"));
    expect(fields.indexOf("`verdict`")).toBeLessThan(fields.indexOf("`details`"));
    expect(fields.indexOf("`details.zeta`")).toBeLessThan(fields.indexOf("`details.alpha`"));
    const example = prompt.slice(prompt.indexOf("## Example"));
    expect(example.indexOf("reasoning:")).toBeLessThan(example.indexOf("verdict:"));
    expect(example.indexOf("zeta:")).toBeLessThan(example.indexOf("alpha:"));
    expect(prompt).not.toContain(FIELD_ORDER_KEYWORD);
    expect(buildRetryPrompt("p", buildReplySchema(stored(), "judge"))).not.toContain(FIELD_ORDER_KEYWORD);
  });

  it("shows earlier outputs in the author's order, though they are stored sorted", () => {
    const prompt = buildContinuationPrompt({
      workflow: stored(),
      roleName: "sorted",
      task: "T",
      history: [
        {
          number: 1,
          role: "judge",
          agent: "a",
          output: { details: { alpha: "x", zeta: "y" }, reasoning: "because", verdict: "accept" },
          body: "",
          startedAt: "2026-01-01T00:00:00.000Z",
          completedAt: "2026-01-01T00:00:01.000Z",
        },
      ],
      edgePrompt: "Go.",
    });
    expect(prompt).toContain("reasoning: because\nverdict: accept\ndetails:\n");
  });

  it("names missing fields in the author's order", () => {
    const checked = safeExtractFrontmatter("---\ndetails: {}\n---\n", buildReplySchema(stored(), "judge"));
    expect(checked.success).toBe(false);
    if (!checked.success)
      expect(checked.error.problem.indexOf("reasoning")).toBeLessThan(checked.error.problem.indexOf("verdict"));
  });

  it("is what workflow show reads, without the keyword", () => {
    const shown = restoreWorkflowFieldOrder(stored());
    const judge = shown.roles.judge?.frontmatter as Record<string, unknown>;
    expect(Object.keys(judge.properties as object)).toEqual(["reasoning", "verdict", "details"]);
    expect(judge).not.toHaveProperty(FIELD_ORDER_KEYWORD);
  });
});
