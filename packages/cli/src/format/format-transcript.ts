import type { ThreadRecord } from "@uwf/protocol";
import { stringify } from "yaml";
import type { HistoryStep } from "../engine/load-history.ts";
import { formatDuration, formatTimestamp } from "./format-duration.ts";

export interface FormatTranscriptOptions {
  thread: ThreadRecord;
  task: string;
  /** The thread's start inputs, shown under the task. */
  inputs?: Record<string, unknown>;
  steps: HistoryStep[];
  /** Characters of step sections kept, newest first. */
  quota: number;
}

/** The thread as markdown: task, then steps with their real numbers; older steps beyond the quota are left out with a note. */
export function formatTranscript({ thread, task, inputs, steps, quota }: FormatTranscriptOptions): {
  markdown: string;
  shownSteps: number;
} {
  const sections: string[] = [];
  let used = 0;
  for (let index = steps.length - 1; index >= 0; index--) {
    const step = steps[index];
    if (step === undefined) continue;
    const section = formatStep(step);
    // Always show the newest step, even when it alone exceeds the quota.
    if (sections.length > 0 && used + section.length > quota) break;
    sections.unshift(section);
    used += section.length;
  }
  const omitted = steps.length - sections.length;
  const header = [
    `# ${thread.workflow} · thread ${thread.id}`,
    "",
    `Status: ${thread.status}${thread.reason === null ? "" : ` — ${thread.reason}`} · ${steps.length} step(s)${thread.next === null ? "" : ` · next: ${thread.next}`}`,
    "",
    "## Task",
    "",
    task,
  ];
  if (inputs !== undefined && Object.keys(inputs).length > 0) {
    header.push("", "Inputs:", "", "```yaml", stringify(inputs).trimEnd(), "```");
  }
  if (omitted > 0) {
    header.push(
      "",
      `> Steps 1–${omitted} are not shown (over the ${quota}-character quota); see them with \`uwf read ${thread.id} --quota ${quota * 4}\` or \`uwf log ${thread.id}\`.`,
    );
  }
  return { markdown: `${[...header, "", ...sections].join("\n").trimEnd()}\n`, shownSteps: sections.length };
}

function formatStep(step: HistoryStep): string {
  const took = formatDuration(Date.parse(step.completedAt) - Date.parse(step.startedAt));
  const lines = [
    `## Step ${step.number} · ${step.role}`,
    "",
    `*${step.agent} · ${formatTimestamp(step.startedAt)} · ${took} · ${step.address}*`,
    "",
  ];
  if (Object.keys(step.output).length > 0) lines.push("```yaml", stringify(step.output).trimEnd(), "```", "");
  if (step.body.trim() !== "") lines.push(step.body.trim(), "");
  return lines.join("\n");
}
