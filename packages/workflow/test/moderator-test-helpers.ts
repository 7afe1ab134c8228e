import type { WorkflowNode } from "@uwf/protocol";
import { parseWorkflowSource } from "../src/load/parse-workflow-source.ts";
import type { ModeratorHistory, ModeratorStep } from "../src/moderator/moderator-history.ts";

/** A workflow from YAML text, for tests that read better as the file a user would write. */
export function workflowFromYaml(text: string): WorkflowNode {
  return parseWorkflowSource(text, { file: "test.yaml" }).workflow;
}

/** A history with the given steps (role, output fields, optional body), oldest first. */
export function historyOf(
  steps: { role: string; output?: Record<string, unknown>; body?: string }[],
): ModeratorHistory {
  return {
    start: { prompt: "fix the bug", workflow: "test", cwd: "/work" },
    thread: { id: "01J0000000000000000000THRD" },
    steps: steps.map(
      (step, index): ModeratorStep => ({
        role: step.role,
        output: step.output ?? {},
        body: step.body ?? "",
        agent: "scripted",
        startedAt: new Date(Date.UTC(2025, 0, 1, 0, index)).toISOString(),
        completedAt: new Date(Date.UTC(2025, 0, 1, 0, index, 30)).toISOString(),
      }),
    ),
  };
}
