import { formatYaml } from "@uwf/workflow";
import { IncompleteHistoryError } from "../errors/incomplete-history-error.ts";
import { fenceText } from "./fence-text.ts";
import { firstShownStep } from "./first-shown-step.ts";
import type { HistoryEntry, NamedStep } from "./history-entry.ts";

export interface FormatHistorySectionOptions {
  /** Oldest first; with `sinceLastVisit`, the steps before `firstShownStep` may be only named. */
  history: readonly (HistoryEntry | NamedStep)[];
  roleName: string;
  /** Characters of step bodies shown, newest first. */
  bodyQuota: number;
  /**
   * True when the agent continues its own conversation of the role's last visit (it has seen
   * everything up to that visit): only that step and the ones since are shown. Default false:
   * the whole thread, since an agent that keeps no conversation cannot know what it forgot.
   */
  sinceLastVisit?: boolean;
}

/**
 * The thread so far. For an agent that keeps no conversation (and on any role's first visit):
 * every step with its edge prompt and output, and bodies newest first within the quota. For an
 * agent continuing its conversation: the role's own last step and everything since, with the
 * earlier steps named as left out (that agent has them already).
 */
export function formatHistorySection(options: FormatHistorySectionOptions): string {
  const { lead, entries } = formatHistoryParts(options);
  return [lead, ...entries].join("\n\n");
}

/**
 * formatHistorySection in two parts: the heading and the sentence about what is shown (`lead`), and each
 * step's entry. An entry's text depends on the step and on how much of its body is shown, not on the
 * steps after it, so consecutive prompts share most of their entries (see buildContinuationPromptParts).
 */
export function formatHistoryParts({
  history,
  roleName,
  bodyQuota,
  sinceLastVisit = false,
}: FormatHistorySectionOptions): { lead: string; entries: string[] } {
  const heading = "# History";
  if (history.length === 0)
    return { lead: `${heading}\n\nNothing has happened yet: yours is the first step.`, entries: [] };

  const from = sinceLastVisit ? firstShownStep(history, roleName) : 0;
  const shown = history.slice(from).map(wholeEntry);
  const bodies = allotBodies(
    shown.map((entry) => entry.body.length),
    bodyQuota,
  );
  const entries = shown.map((entry, index) => formatHistoryEntry(entry, entry.role === roleName, bodies[index]));
  if (from > 0)
    return { lead: `${heading}\n\n${introForLaterVisit(history.slice(0, from), shown, bodyQuota)}`, entries };
  const own = shown.filter((entry) => entry.role === roleName).map((entry) => entry.number);
  return { lead: wholeThreadHistoryLead(own, shown.length, bodyQuota), entries };
}

/**
 * The heading and first sentences of a whole-thread history of `count` steps: which of them were the
 * role's own (`own`, step numbers), and how bodies are shown.
 */
export function wholeThreadHistoryLead(own: readonly number[], count: number, bodyQuota: number): string {
  if (count === 0) return "# History\n\nNothing has happened yet: yours is the first step.";
  return `# History\n\n${introForWholeThread(own, count, bodyQuota)}`;
}

function introForWholeThread(own: readonly number[], count: number, bodyQuota: number): string {
  const sentences = [`${countSteps(count)} so far, oldest first.`];
  if (own.length > 0) sentences.push(`You acted at ${own.length === 1 ? "step" : "steps"} ${listNumbers(own)}.`);
  sentences.push(`Bodies are shown newest first within ${bodyQuota} characters.`);
  return sentences.join(" ");
}

function listNumbers(numbers: readonly number[]): string {
  if (numbers.length === 1) return String(numbers[0]);
  return `${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
}

function wholeEntry(step: HistoryEntry | NamedStep): HistoryEntry {
  if ("output" in step) return step;
  throw new IncompleteHistoryError(step.number, step.role);
}

/** For an agent continuing its conversation: what it has already (named), then the steps since. */
function introForLaterVisit(earlier: readonly NamedStep[], shown: HistoryEntry[], bodyQuota: number): string {
  const names = earlier.map((entry) => `${entry.number} ${entry.role}`).join(", ");
  const last = earlier.at(-1)?.number;
  const sentences = [
    `You acted last at step ${last}. This conversation holds the thread up to there, so those steps are left out here (${names}).`,
  ];
  if (shown.length === 0) sentences.push("Nothing has happened since.");
  else {
    sentences.push(
      `Below ${shown.length === 1 ? "is the 1 step" : `are the ${shown.length} steps`} since, oldest first.`,
    );
    sentences.push(`Bodies are shown newest first within ${bodyQuota} characters.`);
  }
  return sentences.join(" ");
}

/** How much of a step's body a prompt shows. */
export type BodyAllotment = { kind: "full" } | { kind: "cut"; characters: number } | { kind: "omitted" };

/** Newest first: whole bodies while they fit, then the start of the first that does not, then none. */
export function allotBodies(bodyLengths: readonly number[], quota: number): BodyAllotment[] {
  const allotments: BodyAllotment[] = bodyLengths.map(() => ({ kind: "omitted" }));
  let remaining = quota;
  for (let index = bodyLengths.length - 1; index >= 0; index--) {
    const length = bodyLengths[index] ?? 0;
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

/** One step of the history, as the prompt shows it with `body` of its body. */
export function formatHistoryEntry(entry: HistoryEntry, isOwn: boolean, body: BodyAllotment | undefined): string {
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
