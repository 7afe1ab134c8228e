import {
  allotBodies,
  assembleWholeThreadPrompt,
  type BodyAllotment,
  DEFAULT_BODY_QUOTA,
  formatHistoryEntryOf,
  type PromptTextPart,
} from "@uwf/agent-kit";
import type { PromptNode, WorkflowNode } from "@uwf/protocol";
import type { ThreadHistory } from "../history/thread-history.ts";
import { type StoredPrompt, storedPrompt } from "./stored-prompt.ts";

export interface BuildWholeThreadPromptOptions {
  history: ThreadHistory;
  workflow: WorkflowNode;
  /** The stored workflow's address: entries shown under another version are formatted again. */
  workflowAddress: string;
  roleName: string;
  task: string;
  inputs?: Record<string, unknown>;
  edgePrompt: string;
  bodyQuota?: number;
}

type PromptHistory = NonNullable<PromptNode["history"]>;
type Shown = "full" | "omitted" | number;

/**
 * Entries are stored in aligned runs of this many (steps 1–32, 33–64, …) when every entry of the run is
 * shown the same way, whole or left out: one `text/1` node a run instead of one an entry, so a prompt of
 * a long thread reads a few dozen nodes, not one per step. Which runs are grouped follows from the
 * prompt's `history` alone, so the next prompt knows what each of its references holds.
 */
export const HISTORY_RUN_LENGTH = 32;

/** Entries `start` to `end` (exclusive) of a prompt's history, stored as one reference. */
interface Segment {
  start: number;
  end: number;
}

/**
 * The prompt an agent that keeps no conversation gets, the whole thread (what buildContinuationPrompt
 * gives for every step), built from the role's previous prompt (issue 43): the entries and runs of
 * entries it showed the same way are read back from the store, one node each, and only the steps since,
 * and any whose body is now shown differently, are read and formatted. A role's first visit, a previous
 * prompt stored whole (runs before this, a continued conversation) or under another workflow version
 * builds every entry.
 */
export async function buildWholeThreadPrompt(
  options: BuildWholeThreadPromptOptions,
): Promise<{ prompt: string; stored: StoredPrompt }> {
  const { history, workflow, roleName } = options;
  const bodyQuota = options.bodyQuota ?? DEFAULT_BODY_QUOTA;
  const key = `${options.workflowAddress} ${roleName} ${bodyQuota}`;
  const count = history.length;
  const previous = await previousPrompt(history, roleName, key);
  const reused = previous?.history.bodies.length ?? 0;
  const lengths: number[] = [];
  for (let index = 0; index < count; index++) {
    lengths.push(index < reused ? (previous?.history.bodies[index] ?? 0) : (await history.body(index)).length);
  }
  const allotments = allotBodies(lengths, bodyQuota);
  const shown = allotments.map(shownOf);
  const before = previous === null ? [] : previousShown(previous.history);
  /** The previous prompt's reference for exactly `segment`, when it showed each of its entries as this one will. */
  const reusable = (segment: Segment): string | undefined => {
    const ref = previous?.refs.get(`${segment.start} ${segment.end}`);
    if (ref === undefined) return undefined;
    for (let index = segment.start; index < segment.end; index++) if (before[index] !== shown[index]) return undefined;
    return ref;
  };
  const entryParts = await Promise.all(
    historySegments(shown).map(async (segment): Promise<PromptTextPart> => {
      const ref = reusable(segment);
      if (ref !== undefined) {
        const node = (await history.objects.get(ref)) as { type?: unknown; text?: unknown };
        if (node?.type === "text/1" && typeof node.text === "string" && node.text.startsWith("\n\n")) {
          return { text: node.text, shared: true, address: ref };
        }
      }
      const texts: string[] = [];
      for (let index = segment.start; index < segment.end; index++) {
        texts.push(await entryText(index, allotments[index] as BodyAllotment));
      }
      return { text: texts.join(""), shared: true };
    }),
  );
  /** One entry as this prompt shows it: the previous prompt's own node for it when it agrees, else formatted. */
  async function entryText(index: number, allotment: BodyAllotment): Promise<string> {
    const ref = reusable({ start: index, end: index + 1 });
    if (ref !== undefined) {
      const node = (await history.objects.get(ref)) as { type?: unknown; text?: unknown };
      if (node?.type === "text/1" && typeof node.text === "string" && node.text.startsWith("\n\n")) return node.text;
    }
    return `\n\n${formatHistoryEntryOf(workflow, roleName, await history.step(index), allotment)}`;
  }
  const ownSteps = history.steps.flatMap((step, index) => (step.role === roleName ? [index + 1] : []));
  const parts = assembleWholeThreadPrompt({
    workflow,
    roleName,
    task: options.task,
    ...(options.inputs === undefined ? {} : { inputs: options.inputs }),
    edgePrompt: options.edgePrompt,
    bodyQuota,
    stepCount: count,
    ownSteps,
    entries: [],
    entryParts,
  });
  const full = allotments.findIndex((allotment) => allotment.kind === "full");
  const first = full === -1 ? count : full;
  const cut = allotments[first - 1];
  return {
    prompt: parts.map((part) => part.text).join(""),
    stored: storedPrompt(
      parts,
      { key, bodies: lengths, full: first, cut: cut?.kind === "cut" ? cut.characters : null },
      // Linked from the previous prompt, which is in this thread's chain: gc keeps them, so they are not put again.
      new Set(previous?.refs.values() ?? []),
    ),
  };
}

/**
 * How a prompt that shows the entries so stores them: an aligned run of HISTORY_RUN_LENGTH entries, all
 * there and all shown whole or all left out, as one segment; every other entry (a cut body, a run
 * shown partly whole, the newest entries short of a run) as a segment of its own.
 */
export function historySegments(shown: readonly Shown[]): Segment[] {
  const segments: Segment[] = [];
  let start = 0;
  while (start < shown.length) {
    const end = start + HISTORY_RUN_LENGTH;
    if (start % HISTORY_RUN_LENGTH === 0 && end <= shown.length && uniformRun(shown, start, end)) {
      segments.push({ start, end });
      start = end;
    } else {
      segments.push({ start, end: start + 1 });
      start++;
    }
  }
  return segments;
}

function uniformRun(shown: readonly Shown[], start: number, end: number): boolean {
  const first = shown[start];
  if (first !== "full" && first !== "omitted") return false;
  for (let index = start + 1; index < end; index++) if (shown[index] !== first) return false;
  return true;
}

/** How the previous prompt showed the body of each step (see the prompt node's `history`). */
function previousShown(history: PromptHistory): Shown[] {
  return history.bodies.map((_, index) => {
    if (index >= history.full) return "full";
    return history.cut !== null && index === history.full - 1 ? history.cut : "omitted";
  });
}

function shownOf(allotment: BodyAllotment | undefined): Shown {
  if (allotment === undefined || allotment.kind === "omitted") return "omitted";
  return allotment.kind === "full" ? "full" : allotment.characters;
}

/**
 * The role's previous prompt, when it showed the whole thread as this one will (same key), with the
 * reference of each of its segments by `"start end"`: the segments historySegments gives for its
 * history, or one an entry (prompts stored before entries were grouped).
 */
async function previousPrompt(
  history: ThreadHistory,
  roleName: string,
  key: string,
): Promise<{ refs: Map<string, string>; history: PromptHistory } | null> {
  let last = -1;
  for (let index = history.length - 1; index >= 0; index--) {
    if (history.steps[index]?.role === roleName) {
      last = index;
      break;
    }
  }
  if (last < 0) return null;
  const run = await history.run(last);
  const node = (await history.objects.get(run.prompt)) as Partial<PromptNode>;
  if (node?.type !== "prompt/1" || node.history?.key !== key || !Array.isArray(node.parts)) return null;
  const refs = node.parts.flatMap((part) => ("ref" in part ? [part.ref] : []));
  // Its entries are the steps before the role's last visit.
  if (node.history.bodies.length !== last) return null;
  const grouped = historySegments(previousShown(node.history));
  const segments =
    refs.length === grouped.length
      ? grouped
      : refs.length === last
        ? Array.from({ length: last }, (_, index) => ({ start: index, end: index + 1 }))
        : null;
  if (segments === null) return null;
  return {
    refs: new Map(segments.map((segment, index) => [`${segment.start} ${segment.end}`, refs[index] as string])),
    history: node.history,
  };
}
