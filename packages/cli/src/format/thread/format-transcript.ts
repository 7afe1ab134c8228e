import { type HistoryStep, readAnsweredSuspension } from "@uwf/engine";
import type { ThreadRecord } from "@uwf/protocol";
import { stringify } from "yaml";
import { formatDuration, formatTimestamp } from "../text/format-duration.ts";

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
    if (sections.length > 0 && used + section.length > quota) break;
    // The newest step is always shown, cut to the quota when it alone exceeds it.
    const shown = sections.length === 0 ? cutToQuota(section, quota, `Step ${step.number}`, step.address) : section;
    sections.unshift(shown);
    used += shown.length;
  }
  const omitted = steps.length - sections.length;
  const header = [
    `# ${thread.workflow} · thread ${thread.id}`,
    "",
    `Status: ${thread.status}${thread.reason === null ? "" : ` — ${thread.reason}`} · ${steps.length} step(s)${thread.next === null ? "" : ` · next: ${thread.next}`}`,
    "",
    "## Task",
    "",
    cutToQuota(task, quota, "The task", thread.start),
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

/**
 * `text` within `quota` characters: whole when it fits, else its start and a note of how much was
 * cut and where to read it all. A code fence left open by the cut is closed, so the note is not
 * swallowed by it.
 */
function cutToQuota(text: string, quota: number, what: string, address: string): string {
  if (text.length <= quota) return text;
  let end = quota;
  // Never split a surrogate pair.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
  let kept = text.slice(0, end).trimEnd();
  if ((kept.match(/^ {0,3}```/gm) ?? []).length % 2 === 1) kept += "\n```";
  const cut = text.length - end;
  return `${kept}\n\n> ${what} is cut at the ${quota}-character quota (${cut} more characters); see it whole with \`uwf show ${address}\`.\n`;
}

/**
 * A step: what its role was told (the edge prompt; for an answered suspension, the human's answer to its
 * question), then what it reported (the frontmatter fields) and its body.
 */
function formatStep(step: HistoryStep): string {
  const took = formatDuration(Date.parse(step.completedAt) - Date.parse(step.startedAt));
  const lines = [
    `## Step ${step.number} · ${step.role}`,
    "",
    `*${step.agent} · ${formatTimestamp(step.startedAt)} · ${took} · ${step.address}*`,
    "",
  ];
  const answered = readAnsweredSuspension(step.edgePrompt);
  if (answered !== null && step.answer !== undefined) {
    lines.push(`> **Asked:** ${answered.reason}`, ">", "> **The human answered:**", "");
    lines.push("```yaml", stringify(step.answer).trimEnd(), "```", "");
  } else if (answered !== null) {
    lines.push(`> **Asked:** ${answered.reason}`, ">", quote(`**The human answered:** ${answered.answer}`), "");
  } else if (step.edgePrompt.trim() !== "") {
    lines.push(quote(`**Prompt:** ${step.edgePrompt.trim()}`), "");
  }
  if (Object.keys(step.output).length > 0) lines.push("```yaml", stringify(step.output).trimEnd(), "```", "");
  if (step.body.trim() !== "") lines.push(step.body.trim(), "");
  return lines.join("\n");
}

/** Text as a markdown block quote, every line of it. */
function quote(text: string): string {
  return text
    .trim()
    .split("\n")
    .map((line) => (line.trim() === "" ? ">" : `> ${line}`))
    .join("\n");
}
