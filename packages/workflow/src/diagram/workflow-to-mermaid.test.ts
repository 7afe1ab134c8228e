import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { loadWorkflowFile } from "../load/load-workflow-file.ts";
import { workflowToMermaid } from "./workflow-to-mermaid.ts";

const EXAMPLES = join(import.meta.dir, "../../../../examples");

describe("workflowToMermaid", () => {
  it("draws the triage example with $START, $END, conditions and statuses", () => {
    const { workflow } = loadWorkflowFile(join(EXAMPLES, "triage.yaml"));
    expect(workflowToMermaid(workflow)).toBe(`flowchart TD
  START(("$START"))
  role_triager["triager"]
  role_fixer["fixer"]
  role_docs-writer["docs-writer"]
  role_reviewer["reviewer"]
  END(("$END"))
  START --> role_triager
  START -->|"resume"| role_triager
  role_triager -->|"is-bug"| role_fixer
  role_triager -->|"is-docs"| role_docs-writer
  role_triager --> END
  role_fixer --> role_reviewer
  role_docs-writer --> role_reviewer
  role_reviewer -->|"$status: approved"| END
  role_reviewer -->|"$status: rejected and gave-two-tries"| END
  role_reviewer -->|"$status: rejected and change-was-code"| role_fixer
  role_reviewer -->|"$status: rejected"| role_docs-writer
`);
  });

  it("keeps a role named end from closing the chart and escapes quotes in labels", () => {
    const chart = workflowToMermaid({
      type: "workflow/1",
      name: "odd",
      roles: { end: { goal: "End." } },
      conditions: {},
      graph: {
        $START: [{ role: "end", condition: null, status: null, prompt: "Go." }],
        end: [{ role: "$END", condition: null, status: 'say "hi"', prompt: "" }],
      },
    });
    expect(chart).toContain('  role_end -->|"$status: say #quot;hi#quot;"| END\n');
  });

  it("draws a parallel fan-out as a fork to each branch (a role, or a workflow box), each dotted to the join with its policy", () => {
    const { workflow } = loadWorkflowFile(join(import.meta.dir, "../../test/fixtures/fan-out/review-map.yaml"));
    expect(workflowToMermaid(workflow)).toBe(`flowchart TD
  START(("$START"))
  role_planner["planner"]
  role_reviewer["reviewer"]
  role_synthesizer["synthesizer"]
  END(("$END"))
  START -->|"new"| role_planner
  role_planner -->|"$status: ready"| fork_planner_0{{"parallel"}}
  fork_planner_0 -->|"security"| role_reviewer
  role_reviewer -.->|"quorum 2"| role_synthesizer
  fork_planner_0 -->|"speed"| branch_planner_0_speed[["workflow speed-check"]]
  branch_planner_0_speed -.->|"quorum 2"| role_synthesizer
  role_planner -->|"$status: trivial"| END
  role_synthesizer -->|"$status: done"| END
`);
  });

  it("draws a foreach fan-out as one branch per item, joining once per role, with failFast in the label", () => {
    const chart = workflowToMermaid({
      type: "workflow/1",
      name: "files",
      roles: { splitter: { goal: "S." }, fixer: { goal: "F." }, reducer: { goal: "R." } },
      conditions: {},
      graph: {
        $START: [{ role: "splitter", condition: null, status: null, prompt: "Go." }],
        splitter: [
          {
            role: "reducer",
            condition: null,
            status: null,
            prompt: "Sum.",
            fanOut: {
              parallel: null,
              foreach: { expression: 'files[kind = "ts"]', as: "file", branch: { role: "fixer", prompt: "Fix." } },
              policy: "all",
              failFast: true,
              maxConcurrent: 2,
              onCancel: "cancel",
            },
          },
        ],
        reducer: [{ role: "$END", condition: null, status: null, prompt: "" }],
      },
    });
    expect(chart).toContain(
      [
        '  role_splitter --> fork_splitter_0{{"foreach files[kind = #quot;ts#quot;] as file"}}',
        '  fork_splitter_0 -->|"each file"| role_fixer',
        '  role_fixer -.->|"all, failFast"| role_reducer',
        "  role_reducer --> END",
      ].join("\n"),
    );
  });
});
