import type { BranchLink, Store } from "@uwf/cas";
import { type FamilyTreeNode, messageOf, type ThreadRecord, type TreeResult } from "@uwf/protocol";
import { readChain } from "../history/read-chain.ts";
import { loadBudgetReport } from "../view/load-budget-report.ts";
import { chainHolds, chooseForkParent } from "./find-fork-parent.ts";

interface Placement {
  parent: string | null;
  branchedAt: number | null;
  replaced: boolean;
  placement: FamilyTreeNode["placement"];
  note: string | null;
  kind: "fork" | "branch";
}

/**
 * The family of a thread: every thread of its start node placed under its parent, from the thread's
 * root original down. Forks that name their parent are placed from the ref store alone; a fork an older
 * uwf recorded by address only is placed under the oldest older thread whose chain holds that address
 * (by findForkParent's rule), and one no thread holds becomes a root of its own, with a note. Such
 * roots are listed after the thread's own root.
 *
 * Branches (child threads of a fan-out) are placed under the step of their parent that fanned out, as
 * `kind: "branch"`: a `role:` branch shares its parent's start node and is found with the family; a
 * `workflow:` branch has a start node of its own and is found through its parent's branch links, with
 * its own family under it. The family of a branch is its parent's: `tree BRANCH` starts from the
 * thread at the top of its branch lineage.
 */
export async function buildFamilyTree(
  store: Pick<Store, "objects" | "refs">,
  thread: ThreadRecord,
  options: { explorations?: boolean } = {},
): Promise<Omit<TreeResult, "mermaid">> {
  const top = await topOfBranches(store, thread);
  // The re-runs explorations made are left out unless asked for, or unless the tree is one's own.
  const explorations = options.explorations === true || thread.exploredBy !== undefined;
  const roots = await buildFamily(store, top, new Set(), explorations);
  return { thread: thread.id, workflow: top.workflow, roots };
}

/** The thread at the top of a branch's lineage: up through `branchOf` while the parent is recorded. */
async function topOfBranches(store: Pick<Store, "refs">, thread: ThreadRecord): Promise<ThreadRecord> {
  const seen = new Set<string>([thread.id]);
  let current = thread;
  while (current.branchOf !== undefined && !seen.has(current.branchOf.thread)) {
    const parent = await store.refs.getThread(current.branchOf.thread);
    if (parent === null) return current;
    seen.add(parent.id);
    current = parent;
  }
  return current;
}

/** The roots of the family of `anchor`'s start node, the first of them holding `anchor`; `starts` guards against cycles. */
async function buildFamily(
  store: Pick<Store, "objects" | "refs">,
  anchor: ThreadRecord,
  starts: Set<string>,
  explorations: boolean,
): Promise<FamilyTreeNode[]> {
  starts.add(anchor.start);
  const query = explorations ? { start: anchor.start } : { start: anchor.start, explorations: false };
  const relatives = (await store.refs.listThreads(query)).threads.reverse();
  const byId = new Map(relatives.map((relative) => [relative.id, relative]));
  const placements = new Map<string, Placement>();
  for (const [index, relative] of relatives.entries()) {
    // Oldest first, so the threads older than this one are those before it.
    placements.set(relative.id, await placeThread(store, relative, () => relatives.slice(0, index), byId));
  }
  // Each thread's branch links: their order among a step's branches, and the workflow branches (of other start nodes).
  const linksOf = await Promise.all(relatives.map((relative) => store.refs.listBranches(relative.id)));
  const branchIndex = new Map<string, number>();
  const foreignBranches = new Map<string, BranchLink[]>();
  for (const [index, relative] of relatives.entries()) {
    for (const link of linksOf[index] ?? []) {
      if (!branchIndex.has(link.thread)) branchIndex.set(link.thread, link.index);
      if (byId.has(link.thread)) continue;
      const foreign = foreignBranches.get(relative.id);
      if (foreign === undefined) foreignBranches.set(relative.id, [link]);
      else foreign.push(link);
    }
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
  const nodeOf = async (record: ThreadRecord): Promise<FamilyTreeNode> => {
    emitted.add(record.id);
    const placement = placements.get(record.id) as Placement;
    const children: FamilyTreeNode[] = [];
    for (const child of childrenOf.get(record.id) ?? []) {
      if (!emitted.has(child.id)) children.push(await nodeOf(child));
    }
    for (const link of foreignBranches.get(record.id) ?? []) {
      const branch = await workflowBranchNode(store, record, link, starts);
      if (branch !== null) children.push(branch);
    }
    children.sort(
      (left, right) =>
        (left.branchedAt ?? 0) - (right.branchedAt ?? 0) ||
        Number(left.kind === "branch") - Number(right.kind === "branch") ||
        (branchIndex.get(left.thread) ?? 0) - (branchIndex.get(right.thread) ?? 0) ||
        (left.thread < right.thread ? -1 : 1),
    );
    // A parent's budget counts its branches' steps and spend, as its steps are checked (loadBudgetReport).
    const budget = await loadBudgetReport(store, record);
    return {
      thread: record.id,
      status: record.status,
      ...(record.outcome === undefined ? {} : { outcome: record.outcome }),
      stepCount: record.stepCount,
      usage: record.usage,
      ...(budget === undefined ? {} : { budget }),
      head: record.head,
      forkedFrom: record.forkedFrom,
      ...(record.forkedFrom?.workflow === undefined
        ? {}
        : { forkedOnto: { name: record.workflow, address: record.workflowAddress } }),
      branchedAt: placement.branchedAt,
      replaced: placement.replaced,
      placement: placement.placement,
      note: placement.note,
      kind: placement.kind,
      ...(placement.kind === "branch" && record.branchOf !== undefined ? { branchOf: record.branchOf } : {}),
      children,
    };
  };

  const roots = [await nodeOf(rootOf(anchor, placements, byId))];
  for (const relative of relatives) {
    if (placements.get(relative.id)?.placement === "unplaced" && !emitted.has(relative.id)) {
      roots.push(await nodeOf(relative));
    }
  }
  return roots;
}

/**
 * A `workflow:` branch linked under `parent` (its own start node), with its own family under it; null
 * when its record is gone, it was made for another parent (a fork of the parent shares its links), or
 * its start node's family is already drawn.
 */
async function workflowBranchNode(
  store: Pick<Store, "objects" | "refs">,
  parent: ThreadRecord,
  link: BranchLink,
  starts: Set<string>,
): Promise<FamilyTreeNode | null> {
  const record = await store.refs.getThread(link.thread);
  if (record === null || starts.has(record.start)) return null;
  if (record.branchOf !== undefined && record.branchOf.thread !== parent.id) return null;
  const [root] = await buildFamily(store, record, starts, true);
  if (root === undefined) return null;
  return {
    ...root,
    kind: "branch",
    ...(record.branchOf === undefined ? {} : { branchOf: record.branchOf }),
    branchedAt: link.step,
    replaced: false,
    placement: "lineage",
    note: null,
  };
}

async function placeThread(
  store: Pick<Store, "objects" | "refs">,
  thread: ThreadRecord,
  /** The threads older than this one: asked for only to place a fork recorded by address. */
  older: () => readonly ThreadRecord[],
  byId: ReadonlyMap<string, ThreadRecord>,
): Promise<Placement> {
  const branchOf = thread.branchOf;
  // A fork of a branch keeps the branch's `branchOf` (it is stepped as the branch is) but is a fork:
  // it sits under the branch it was forked from, as `list --forks-of` and `eval --forks-of` find it.
  const forkOfBranch = thread.forkedFrom?.thread != null && byId.has(thread.forkedFrom.thread);
  if (branchOf !== undefined && byId.has(branchOf.thread) && !forkOfBranch) {
    return {
      parent: branchOf.thread,
      branchedAt: branchOf.step,
      replaced: false,
      placement: "lineage",
      note: null,
      kind: "branch",
    };
  }
  const origin = thread.forkedFrom;
  if (origin === null) {
    return { parent: null, branchedAt: null, replaced: false, placement: "original", note: null, kind: "fork" };
  }
  if (origin.thread !== null) {
    if (byId.has(origin.thread)) {
      const replaced = origin.replaced === true;
      return {
        parent: origin.thread,
        branchedAt: origin.step,
        replaced,
        placement: "lineage",
        note: null,
        kind: "fork",
      };
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
  return { parent: parent.id, branchedAt: step, replaced, placement: "address", note: null, kind: "fork" };
}

function unplaced(note: string): Placement {
  return { parent: null, branchedAt: null, replaced: false, placement: "unplaced", note, kind: "fork" };
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
