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

/**
 * A splitter whose reply's `files` fan out to one fixer branch each (the item named `as`, when given,
 * in the branch's prompt), joined by a reducer whose edge to $END reads the reducer's body.
 */
export function foreachFilesYaml(options: { as?: string; branchPrompt?: string } = {}): string {
  const as = options.as === undefined ? "" : `\n      as: ${options.as}`;
  return `
name: t
roles:
  splitter: { goal: S. }
  fixer: { goal: F. }
  reducer: { goal: R. }
graph:
  $START: [{ role: splitter, prompt: "Go." }]
  splitter:
    - foreach: "files"${as}
      branch: { role: fixer, prompt: "${options.branchPrompt ?? "Fix {{ item }}"}" }
      join: { role: reducer, prompt: "Sum." }
  reducer: [{ role: $END, prompt: "Done: {{ _body }}" }]
`;
}
