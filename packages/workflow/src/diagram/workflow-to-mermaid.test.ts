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
});
