import {
  allotBodies,
  assembleWholeThreadPrompt,
  type BodyAllotment,
  DEFAULT_BODY_QUOTA,
  formatHistoryEntryOf,
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
 * The prompt an agent that keeps no conversation gets, the whole thread (what buildContinuationPrompt
 * gives for every step), built from the role's previous prompt (issue 43): the entries it showed the same
 * way are read back from the store, one node each, and only the steps since, and any whose body is now
 * shown differently, are read and formatted. A role's first visit, a previous prompt stored whole (runs
 * before this, a continued conversation) or under another workflow version builds every entry.
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
  const entries = await Promise.all(
    allotments.map(async (allotment, index) => {
      const ref = previous?.refs[index];
      if (previous !== null && ref !== undefined && shownBefore(previous.history, index) === shownOf(allotment)) {
        const node = (await history.objects.get(ref)) as { type?: unknown; text?: unknown };
        if (node?.type === "text/1" && typeof node.text === "string" && node.text.startsWith("\n\n")) {
          return node.text.slice(2);
        }
      }
      return formatHistoryEntryOf(workflow, roleName, await history.step(index), allotment);
    }),
  );
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
    entries,
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
      new Set(previous?.refs ?? []),
    ),
  };
}

/** How the previous prompt showed the body of the step at `index` (see the prompt node's `history`). */
function shownBefore(history: PromptHistory, index: number): Shown {
  if (index >= history.full) return "full";
  return history.cut !== null && index === history.full - 1 ? history.cut : "omitted";
}

function shownOf(allotment: BodyAllotment | undefined): Shown {
  if (allotment === undefined || allotment.kind === "omitted") return "omitted";
  return allotment.kind === "full" ? "full" : allotment.characters;
}

/** The role's previous prompt, when it showed the whole thread as this one will (same key), with its entries' refs. */
async function previousPrompt(
  history: ThreadHistory,
  roleName: string,
  key: string,
): Promise<{ refs: string[]; history: PromptHistory } | null> {
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
  // Its entries are the steps before the role's last visit, one reference each.
  if (node.history.bodies.length !== last || refs.length !== last) return null;
  return { refs, history: node.history };
}
