import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { loadWorkflowFile } from "./load-workflow-file.ts";

const FIXTURES = join(import.meta.dir, "../../test/fixtures/fan-out");

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
