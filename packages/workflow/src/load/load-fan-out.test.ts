import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { type FanOut, parallelBranches } from "@uwf/protocol";
import { loadWorkflowFile } from "./load-workflow-file.ts";
import { safeParseWorkflowSource } from "./parse-workflow-source.ts";

const FIXTURES = join(import.meta.dir, "../../test/fixtures/fan-out");

/** A value as the store gives it back: canonical JSON, every map's keys sorted. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

describe("loading fan-out edges", () => {
  it("normalises a $status map fan-out: the join's role and prompt on the edge, branches and policy in fanOut", () => {
    const { workflow, warnings } = loadWorkflowFile(join(FIXTURES, "review-map.yaml"));
    expect(warnings).toEqual([]);
    expect(workflow.graph.planner).toEqual([
      {
        role: "synthesizer",
        condition: null,
        status: "ready",
        prompt: "Merge {{ branches.security.output.verdict }}",
        fanOut: {
          parallel: {
            security: { role: "reviewer", prompt: "Review {{ plan }} for security" },
            speed: { workflow: "speed-check", prompt: "Time {{ plan }}", inputs: { target: "{{ plan }}", runs: 3 } },
          },
          keys: ["security", "speed"],
          foreach: null,
          policy: { quorum: 2 },
          failFast: false,
          maxConcurrent: 1,
          onCancel: "abandon",
        },
      },
      { role: "$END", condition: null, status: "trivial", prompt: "Nothing to review." },
    ]);
    // Branch keys keep their declaration order.
    expect(Object.keys(workflow.graph.planner?.[0]?.fanOut?.parallel ?? {})).toEqual(["security", "speed"]);
  });

  it("keeps named branches in declaration order once stored, where canonical JSON sorts a map's keys", () => {
    const parsed = safeParseWorkflowSource(
      `
name: t
roles:
  planner: { goal: P. }
  reviewer: { goal: R. }
  synthesizer: { goal: S. }
graph:
  $START: [{ role: planner, prompt: "Go." }]
  planner:
    - parallel:
        zulu: { role: reviewer, prompt: Z. }
        alpha: { role: reviewer, prompt: A. }
        mike: { role: reviewer, prompt: M. }
      join: { role: synthesizer, prompt: Merge. }
`,
      { file: "t.yaml" },
    );
    if (!parsed.success) throw new Error(parsed.error.problems.map((problem) => problem.message).join("; "));
    const stored = sortedKeys(parsed.value.workflow) as typeof parsed.value.workflow;
    const fanOut = stored.graph.planner?.[0]?.fanOut as FanOut;
    expect(Object.keys(fanOut.parallel ?? {})).toEqual(["alpha", "mike", "zulu"]);
    expect(parallelBranches(fanOut).map(([key]) => key)).toEqual(["zulu", "alpha", "mike"]);
  });

  it("normalises a list-style foreach with defaults (policy all, onCancel cancel) and keeps other edges as they were", () => {
    const { workflow, warnings } = loadWorkflowFile(join(FIXTURES, "files-list.yaml"));
    expect(warnings).toEqual([]);
    expect(workflow.graph.splitter).toEqual([
      {
        role: "reducer",
        condition: "has-files",
        status: null,
        prompt: "Summarise {{ branches | size }} fixes",
        fanOut: {
          parallel: null,
          foreach: {
            expression: "files",
            as: "file",
            branch: { role: "fixer", prompt: "Fix {{ file.path }} ({{ index }})" },
          },
          policy: "all-settled",
          failFast: false,
          maxConcurrent: null,
          onCancel: "cancel",
        },
      },
      { role: "$END", condition: null, status: null, prompt: "Nothing to fix." },
    ]);
    // An edge without a fan-out has no fanOut key at all, so its workflow's address is unchanged.
    expect(Object.keys(workflow.graph.$START?.[0] ?? {})).toEqual(["role", "condition", "status", "prompt"]);
  });

  it("loads the CLI's example fan-out workflows without a problem", () => {
    const cliFixtures = join(import.meta.dir, "../../../cli/test/fixtures/workflows");
    for (const name of ["fan-out-review.yaml", "fan-out-files.yaml"]) {
      const { workflow, warnings } = loadWorkflowFile(join(cliFixtures, name));
      expect(warnings).toEqual([]);
      expect(
        Object.values(workflow.graph)
          .flat()
          .filter((edge) => edge.fanOut !== undefined),
      ).toHaveLength(1);
    }
  });
});

describe("validating what fan-out templates read", () => {
  const problemsOf = (graph: string): string[] => {
    const result = safeParseWorkflowSource(
      `
name: t
roles:
  planner: { goal: P., frontmatter: { type: object, properties: { plan: { type: string } }, required: [plan] } }
  reviewer: { goal: R. }
  synthesizer: { goal: S. }
graph:
  $START: [{ role: planner, prompt: "Go." }]
${graph}`,
      { file: "t.yaml" },
    );
    return result.success
      ? []
      : result.error.problems.map((problem) => `${problem.line}:${problem.column} ${problem.path}: ${problem.message}`);
  };

  it("lets the join prompt and the join role's edges read branches, and the branches the source's fields", () => {
    expect(
      problemsOf(`  planner:
    - parallel: { a: { role: reviewer, prompt: "Review {{ plan }}" } }
      join: { role: synthesizer, prompt: "Merge {{ plan }}: {{ branches.a.body }}" }
  synthesizer: [{ role: $END, prompt: "{{ branches.a.status }}" }]
`),
    ).toEqual([]);
  });

  it("refuses branches on an edge whose role is no join, and an unknown field in a branch prompt", () => {
    expect(
      problemsOf(`  planner:
    - parallel: { a: { role: reviewer, prompt: "Review {{ plna }}" } }
      join: { role: synthesizer, prompt: "Merge." }
  synthesizer: [{ role: $END }]
  reviewer: [{ role: $END, prompt: "{{ branches.a.body }}" }]
`),
    ).toEqual([
      '10:48 graph.planner[0].parallel.a.prompt: unknown variable "plna": role planner provides plan, $status, reason, _body, start, thread, inputs',
      '13:36 graph.reviewer[0].prompt: unknown variable "branches": role reviewer provides $status, reason, _body, start, thread, inputs',
    ]);
  });
});
