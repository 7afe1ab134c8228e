import type { Store } from "@uwf/cas";
import { budgetReport, type FamilyTreeNode, messageOf, type ThreadRecord, type TreeResult } from "@uwf/protocol";
import { readChain } from "../history/read-chain.ts";
import { chainHolds, chooseForkParent } from "./find-fork-parent.ts";

interface Placement {
  parent: string | null;
  branchedAt: number | null;
  replaced: boolean;
  placement: FamilyTreeNode["placement"];
  note: string | null;
}

/**
 * The family of a thread: every thread of its start node placed under its parent, from the thread's
 * root original down. Forks that name their parent are placed from the ref store alone; a fork an older
 * uwf recorded by address only is placed under the oldest older thread whose chain holds that address
 * (by findForkParent's rule), and one no thread holds becomes a root of its own, with a note. Such
 * roots are listed after the thread's own root.
 */
export async function buildFamilyTree(
  store: Pick<Store, "objects" | "refs">,
  thread: ThreadRecord,
): Promise<Omit<TreeResult, "mermaid">> {
  const relatives = (await store.refs.listThreads({ start: thread.start })).threads.reverse();
  const byId = new Map(relatives.map((relative) => [relative.id, relative]));
  const placements = new Map<string, Placement>();
  for (const [index, relative] of relatives.entries()) {
    // Oldest first, so the threads older than this one are those before it.
    placements.set(relative.id, await placeThread(store, relative, () => relatives.slice(0, index), byId));
  }

  const childrenOf = new Map<string, ThreadRecord[]>();
  for (const relative of relatives) {
    const parent = placements.get(relative.id)?.parent;
    if (parent == null) continue;
    const siblings = childrenOf.get(parent);
    if (siblings === undefined) childrenOf.set(parent, [relative]);
    else siblings.push(relative);
  }
  const emitted = new Set<string>();
  const nodeOf = (record: ThreadRecord): FamilyTreeNode => {
    emitted.add(record.id);
    const placement = placements.get(record.id) as Placement;
    const children = [...(childrenOf.get(record.id) ?? [])].sort(
      (left, right) =>
        (placements.get(left.id)?.branchedAt ?? 0) - (placements.get(right.id)?.branchedAt ?? 0) ||
        (left.id < right.id ? -1 : 1),
    );
    const budget = budgetReport(record);
    return {
      thread: record.id,
      status: record.status,
      ...(record.outcome === undefined ? {} : { outcome: record.outcome }),
      stepCount: record.stepCount,
      usage: record.usage,
      ...(budget === undefined ? {} : { budget }),
      head: record.head,
      forkedFrom: record.forkedFrom,
      branchedAt: placement.branchedAt,
      replaced: placement.replaced,
      placement: placement.placement,
      note: placement.note,
      children: children.filter((child) => !emitted.has(child.id)).map(nodeOf),
    };
  };

  const roots = [nodeOf(rootOf(thread, placements, byId))];
  for (const relative of relatives) {
    if (placements.get(relative.id)?.placement === "unplaced" && !emitted.has(relative.id)) {
      roots.push(nodeOf(relative));
    }
  }
  return { thread: thread.id, workflow: thread.workflow, roots };
}

async function placeThread(
  store: Pick<Store, "objects" | "refs">,
  thread: ThreadRecord,
  /** The threads older than this one: asked for only to place a fork recorded by address. */
  older: () => readonly ThreadRecord[],
  byId: ReadonlyMap<string, ThreadRecord>,
): Promise<Placement> {
  const origin = thread.forkedFrom;
  if (origin === null) return { parent: null, branchedAt: null, replaced: false, placement: "original", note: null };
  if (origin.thread !== null) {
    if (byId.has(origin.thread)) {
      const replaced = origin.replaced === true;
      return { parent: origin.thread, branchedAt: origin.step, replaced, placement: "lineage", note: null };
    }
    return unplaced(`its parent thread ${origin.thread} is not recorded`);
  }
  let step = origin.step;
  if (step === null) {
    try {
      step = (await readChain(store, origin.address)).steps.length;
    } catch (error) {
      return unplaced(`forked from ${origin.address}, which cannot be read: ${messageOf(error)}`);
    }
  }
  const point = { address: origin.address, step };
  const parent = await chooseForkParent(store, older(), point);
  if (parent === null) return unplaced(`forked from ${origin.address}, which no older thread's chain holds`);
  // A counterfactual's head is a sibling of the step it replaced, so its own chain lacks that step.
  const replaced = origin.replaced ?? !(await chainHolds(store, thread, point));
  return { parent: parent.id, branchedAt: step, replaced, placement: "address", note: null };
}

function unplaced(note: string): Placement {
  return { parent: null, branchedAt: null, replaced: false, placement: "unplaced", note };
}

/** The root of the thread's tree: up through the parents (stopping at a cycle, which only damage could make). */
function rootOf(
  thread: ThreadRecord,
  placements: ReadonlyMap<string, Placement>,
  byId: ReadonlyMap<string, ThreadRecord>,
): ThreadRecord {
  const seen = new Set<string>();
  let current = thread;
  for (;;) {
    seen.add(current.id);
    const parentId = placements.get(current.id)?.parent;
    const parent = parentId == null ? undefined : byId.get(parentId);
    if (parent === undefined || seen.has(parent.id)) return current;
    current = parent;
  }
}
