import { formatYaml } from "../extract/format-frontmatter.ts";
import { fenceText } from "./fence-text.ts";
import { firstShownStep } from "./first-shown-step.ts";
import type { HistoryEntry, NamedStep } from "./history-entry.ts";
import { IncompleteHistoryError } from "./incomplete-history-error.ts";

export interface FormatHistorySectionOptions {
  /** Oldest first; the steps before `firstShownStep` may be only named. */
  history: readonly (HistoryEntry | NamedStep)[];
  roleName: string;
  /** Characters of step bodies shown, newest first. */
  bodyQuota: number;
}

/**
 * The thread so far. On a role's first visit: every step with its output, and
 * bodies newest first within the quota. On a later visit: the role's own last
 * step and everything since, with the earlier steps named but left out.
 */
export function formatHistorySection({ history, roleName, bodyQuota }: FormatHistorySectionOptions): string {
  const heading = "# History";
  if (history.length === 0) return `${heading}\n\nNothing has happened yet: yours is the first step.`;

  const from = firstShownStep(history, roleName);
  const laterVisit = history[from]?.role === roleName;
  const shown = history.slice(from).map(wholeEntry);
  const earlier = history.slice(0, from);
  const bodies = allotBodies(shown, bodyQuota);
  const intro = laterVisit
    ? introForLaterVisit(shown, earlier, bodyQuota)
    : `${countSteps(history.length)} so far, oldest first. Bodies are shown newest first within ${bodyQuota} characters.`;
  const entries = shown.map((entry, index) => formatEntry(entry, laterVisit && index === 0, bodies[index]));
  return [heading, intro, ...entries].join("\n\n");
}

function wholeEntry(step: HistoryEntry | NamedStep): HistoryEntry {
  if ("output" in step) return step;
  throw new IncompleteHistoryError(step.number, step.role);
}

function introForLaterVisit(shown: HistoryEntry[], earlier: NamedStep[], bodyQuota: number): string {
  const own = shown[0];
  const since = shown.length - 1;
  const sentences = [
    `You acted last at step ${own?.number}. Below are that step and ${since === 0 ? "nothing else: nothing has happened since" : `the ${countSteps(since)} since`}.`,
  ];
  if (earlier.length > 0) {
    const names = earlier.map((entry) => `${entry.number} ${entry.role}`).join(", ");
    sentences.push(`Earlier steps are left out here (${names}).`);
  }
  sentences.push(`Bodies are shown newest first within ${bodyQuota} characters.`);
  return sentences.join(" ");
}

type BodyAllotment = { kind: "full" } | { kind: "cut"; characters: number } | { kind: "omitted" };

/** Newest first: whole bodies while they fit, then the start of the first that does not, then none. */
function allotBodies(entries: HistoryEntry[], quota: number): BodyAllotment[] {
  const allotments: BodyAllotment[] = entries.map(() => ({ kind: "omitted" }));
  let remaining = quota;
  for (let index = entries.length - 1; index >= 0; index--) {
    const length = entries[index]?.body.length ?? 0;
    if (length <= remaining) {
      allotments[index] = { kind: "full" };
      remaining -= length;
      continue;
    }
    if (remaining > 0) allotments[index] = { kind: "cut", characters: remaining };
    break;
  }
  return allotments;
}

function formatEntry(entry: HistoryEntry, isOwn: boolean, body: BodyAllotment | undefined): string {
  const parts = [
    `## Step ${entry.number}: ${entry.role}${isOwn ? " (you)" : ""}`,
    `Agent \`${entry.agent}\`, started ${entry.startedAt}, completed ${entry.completedAt}.`,
  ];
  if (entry.edgePrompt !== undefined && entry.edgePrompt.trim() !== "") {
    parts.push(`It was asked:\n\n${quote(entry.edgePrompt)}`);
  }
  parts.push(
    Object.keys(entry.output).length === 0
      ? "Output: none."
      : `Output:\n\n${fenceText(formatYaml(entry.output), "yaml")}`,
  );
  parts.push(formatBody(entry.body, body ?? { kind: "omitted" }));
  return parts.join("\n\n");
}

function formatBody(body: string, allotment: BodyAllotment): string {
  if (body.trim() === "") return "Body: empty.";
  if (allotment.kind === "full") return `Body:\n\n${fenceText(body, "markdown")}`;
  if (allotment.kind === "cut") {
    return `Body (the first ${allotment.characters} of ${body.length} characters):\n\n${fenceText(`${body.slice(0, allotment.characters)}\n…`, "markdown")}`;
  }
  return `Body: left out (${body.length} characters) to keep the history short.`;
}

function quote(text: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

function countSteps(count: number): string {
  return count === 1 ? "1 step" : `${count} steps`;
}
