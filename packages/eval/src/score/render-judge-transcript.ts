import { formatHistorySection, type HistoryEntry } from "@uwf/agent-kit";
import type { EvalThreadView } from "@uwf/protocol";
import { formatYaml } from "@uwf/workflow";

/** Characters of step bodies a judge is shown, newest first (a whole thread of ordinary length). */
export const JUDGE_BODY_QUOTA = 200_000;

/**
 * The thread a judge reads, as markdown: which thread it is and how it stands, its task and inputs,
 * then every step (its role, its `$status` and other output fields as YAML, its body) as the prompt
 * builder shows a thread's history to an agent. The view must hold the step bodies.
 */
export function renderJudgeTranscript(view: EvalThreadView, bodyQuota = JUDGE_BODY_QUOTA): string {
  const standing =
    view.status === "ended" && view.outcome !== undefined
      ? `ended by ${view.outcome.role}${view.outcome.status === null ? "" : ` with $status ${view.outcome.status}`}`
      : view.status;
  const lines = [
    "# The thread to judge",
    "",
    `Thread ${view.thread} of the workflow "${view.workflow}", ${standing}, after ${view.steps.length} step${view.steps.length === 1 ? "" : "s"}.`,
    "",
    "# Its task",
    "",
    view.start.prompt.trim() === "" ? "(no prompt)" : view.start.prompt.trim(),
  ];
  if (Object.keys(view.inputs).length > 0)
    lines.push("", "Inputs:", "", "```yaml", formatYaml(view.inputs).trimEnd(), "```");
  const history: HistoryEntry[] = view.steps.map((step) => ({
    number: step.number,
    role: step.role,
    agent: step.agent,
    output: step.output,
    body: step.body ?? "",
    startedAt: step.startedAt,
    completedAt: step.completedAt,
  }));
  // No role of the judged thread is the judge's own: an empty name marks none as "(you)".
  lines.push("", formatHistorySection({ history, roleName: "", bodyQuota }));
  return `${lines.join("\n")}\n`;
}
