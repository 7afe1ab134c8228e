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
 * How a prompt shows its entries' bodies, as its `history` says: whole from entry `full` on; the one
 * before cut to `cut` characters when that is not null; every earlier one left out. The quota always
 * allots them so (the newest whole, then at most one cut), which lets a segment's check cost the same
 * whatever its length.
 */
export interface BodiesShown {
  count: number;
  full: number;
  cut: number | null;
}

/**
 * Entries are stored in aligned runs (steps 1–32, 33–64, …; within a run not shown alike, 1–8, 9–16, …)
 * when every entry of the run is shown the same way, whole or left out: one `text/1` node a run instead
 * of one an entry, so a prompt of a long thread reads a few dozen nodes, not one per step. Which runs are
 * grouped follows from the prompt's `history` alone, so the next prompt knows what each of its
 * references holds. Longest first.
 */
export const HISTORY_RUN_LENGTHS: readonly number[] = [32, 8];

/** How prompts stored before the runs of 8 grouped their entries: recognized, so their runs are reused. */
const EARLIER_RUN_LENGTHS: readonly (readonly number[])[] = [[32]];

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
  const lengths = await bodyLengths(history, previous?.history ?? null);
  let allotments = allotBodies(lengths, bodyQuota);
  let shown = bodiesShownBy(allotments);
  const keptFrom = previous?.history.from ?? 0;
  if (keptFrom > 0 && shown.full - 1 < keptFrom) {
    // The quota reached a step whose length the previous prompt did not keep: it cannot, unless that
    // prompt was made otherwise than here; read them all rather than trust the gap.
    allotments = allotBodies(await bodyLengths(history, null), bodyQuota);
    shown = bodiesShownBy(allotments);
  }
  const before = previous === null ? null : bodiesShownIn(previous.history);
  /** Whether the previous prompt showed each entry of `segment` as this one will. */
  const agrees = (segment: Segment): boolean => before !== null && shownAlike(before, shown, segment);
  const entryParts = await Promise.all(
    historySegments(shown).map(async (segment): Promise<PromptTextPart> => {
      const ref = previous?.refs.get(`${segment.start} ${segment.end}`);
      if (ref !== undefined && agrees(segment)) {
        const text = await segmentText(history, ref);
        if (text !== null) return { text, shared: true, address: ref };
      }
      return { text: await composeSegment(segment), shared: true };
    }),
  );
  /**
   * A segment the previous prompt did not store as one: laid end to end from the previous prompt's own
   * segments inside it that agree (a new run from the entries or shorter runs it was stored as), and the
   * entries no such segment covers, formatted.
   */
  async function composeSegment(segment: Segment): Promise<string> {
    const texts: string[] = [];
    let index = segment.start;
    while (index < segment.end) {
      const reused = await reusedFrom(index, segment.end);
      if (reused !== null) {
        texts.push(reused.text);
        index = reused.end;
        continue;
      }
      const allotment = allotments[index] as BodyAllotment;
      texts.push(`\n\n${formatHistoryEntryOf(workflow, roleName, await history.step(index), allotment)}`);
      index++;
    }
    return texts.join("");
  }
  /** The longest of the previous prompt's segments from `start` to at most `limit` that agrees, and its text. */
  async function reusedFrom(start: number, limit: number): Promise<{ text: string; end: number } | null> {
    for (const length of [...HISTORY_RUN_LENGTHS, 1]) {
      const end = start + length;
      if (end > limit) continue;
      const ref = previous?.refs.get(`${start} ${end}`);
      if (ref === undefined || !agrees({ start, end })) continue;
      const text = await segmentText(history, ref);
      if (text !== null) return { text, end };
    }
    return null;
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
  return {
    prompt: parts.map((part) => part.text).join(""),
    stored: storedPrompt(
      parts,
      storedHistory(key, lengths, shown),
      // Linked from the previous prompt, which is in this thread's chain: gc keeps them, so they are not put again.
      new Set(previous?.refs.values() ?? []),
    ),
  };
}

/**
 * Each step's body length, for allotting the quota: from the previous prompt's `history` where it kept
 * them, read from the store for the steps since. The steps it left out for good (before its `from`)
 * count as 0: the quota never reaches them again (see storedHistory).
 */
async function bodyLengths(history: ThreadHistory, previous: PromptHistory | null): Promise<number[]> {
  const from = previous?.from ?? 0;
  const kept = previous === null ? 0 : from + previous.bodies.length;
  const lengths: number[] = [];
  for (let index = 0; index < history.length; index++) {
    if (index < from) lengths.push(0);
    else lengths.push(index < kept ? (previous?.bodies[index - from] ?? 0) : (await history.body(index)).length);
  }
  return lengths;
}

/**
 * The `history` a prompt stores: its key, how it shows the bodies, and the lengths the role's next prompt
 * needs to allot the quota again. That prompt shows more steps, so no more bodies fit: the steps before
 * the one this prompt cut or could not fit are left out for good, and their lengths are not kept (a
 * thread's prompts then cost the store what their newest steps cost, not a number per step each time).
 */
function storedHistory(key: string, lengths: readonly number[], shown: BodiesShown): PromptHistory {
  const from = Math.max(0, shown.full - 1);
  return {
    key,
    ...(from === 0 ? {} : { from }),
    bodies: lengths.slice(from),
    full: shown.full,
    cut: shown.cut,
  };
}

/**
 * How a prompt that shows the entries so stores them: an aligned run of one of `runLengths` (the longest
 * that fits) whose entries are all there and all shown whole or all left out, as one segment; every other
 * entry (a cut body, the newest entries short of a run) as a segment of its own.
 */
export function historySegments(shown: BodiesShown, runLengths = HISTORY_RUN_LENGTHS): Segment[] {
  const omittedEnd = shown.cut === null ? shown.full : shown.full - 1;
  const segments: Segment[] = [];
  let start = 0;
  while (start < shown.count) {
    let end = start + 1;
    for (const run of runLengths) {
      const runEnd = start + run;
      if (start % run === 0 && runEnd <= shown.count && (runEnd <= omittedEnd || start >= shown.full)) {
        end = runEnd;
        break;
      }
    }
    segments.push({ start, end });
    start = end;
  }
  return segments;
}

/** The text of a segment a previous prompt stored, when the node is one (else it is built again). */
async function segmentText(history: ThreadHistory, ref: string): Promise<string | null> {
  const node = (await history.objects.get(ref)) as { type?: unknown; text?: unknown };
  return node?.type === "text/1" && typeof node.text === "string" && node.text.startsWith("\n\n") ? node.text : null;
}

function shownAt(shown: BodiesShown, index: number): Shown {
  if (index >= shown.full) return "full";
  return shown.cut !== null && index === shown.full - 1 ? shown.cut : "omitted";
}

/** Whether both show every entry of `segment` alike: checked where either changes how it shows them. */
function shownAlike(one: BodiesShown, other: BodiesShown, segment: Segment): boolean {
  for (const index of [segment.start, one.full - 1, one.full, other.full - 1, other.full]) {
    if (index < segment.start || index >= segment.end) continue;
    if (shownAt(one, index) !== shownAt(other, index)) return false;
  }
  return true;
}

function bodiesShownBy(allotments: readonly BodyAllotment[]): BodiesShown {
  let full = allotments.length;
  while (full > 0 && allotments[full - 1]?.kind === "full") full--;
  const cut = allotments[full - 1];
  return { count: allotments.length, full, cut: cut?.kind === "cut" ? cut.characters : null };
}

function bodiesShownIn(history: PromptHistory): BodiesShown {
  return { count: (history.from ?? 0) + history.bodies.length, full: history.full, cut: history.cut };
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
  if ((node.history.from ?? 0) + node.history.bodies.length !== last) return null;
  // The grouping it was stored with: today's, an earlier one, or one entry a segment.
  let segments: Segment[] | undefined;
  for (const runLengths of [HISTORY_RUN_LENGTHS, ...EARLIER_RUN_LENGTHS, []]) {
    segments = historySegments(bodiesShownIn(node.history), runLengths);
    if (segments.length === refs.length) break;
    segments = undefined;
  }
  if (segments === undefined) return null;
  return {
    refs: new Map(segments.map((segment, index) => [`${segment.start} ${segment.end}`, refs[index] as string])),
    history: node.history,
  };
}
