import type { Store } from "@uwf/cas";
import type {
  Address,
  CompareParting,
  CompareResult,
  CompareRow,
  CompareSortKey,
  FamilyTreeNode,
  ThreadRecord,
  ThreadStepNode,
} from "@uwf/protocol";
import { countChainSteps } from "../branches/count-thread.ts";
import { type ChainStep, readChain } from "../history/read-chain.ts";
import { storedNodeAs } from "../history/stored-node.ts";
import { buildFamilyTree } from "./build-family-tree.ts";
import { findForkParent } from "./find-fork-parent.ts";

/** What is compared: a thread's family, or the forks made at a node (as resolveNodeOrThread names either). */
export type CompareTarget = { address: Address; thread: null } | { address: null; thread: ThreadRecord };

export interface CompareFamilyOptions {
  /** Only the original's own forks (`--direct`); by default their forks too, at any depth. */
  direct?: boolean;
  /** Order the forks by this (the original stays first); by default family order. */
  sort?: CompareSortKey;
  /** Called as each phase ends, with its name (`UWF_TRACE` in the CLI). */
  trace?(phase: string): void;
}

/** How many members' chains and step nodes are read at once. */
const READ_CONCURRENCY = 16;

/** Up to this many of a member's newest steps are read back from its head rather than through its chain index. */
const WALK_BACK_STEPS = 3;

/** A member of the family in family order, with what its row is computed from. */
interface Member {
  node: FamilyTreeNode;
  depth: number;
  parent: string | null;
}

/**
 * One row per member of a fork family, for `uwf compare`: the original first, then each fork after its
 * parent (by the step it was forked at, then oldest first), or sorted by a column.
 *
 * Named by a thread, the family is that thread and its forks, at any depth unless `direct`. Named by a step
 * or start node, it is the forks made at that node (and theirs), compared with the thread that recorded
 * the node (findForkParent's rule), which comes first.
 *
 * Each row's status, outcome, usage and lineage come from the family's records, read in one query as
 * `uwf tree` reads them. Where a member parts from the original follows from the lineage alone (a fork
 * shares its parent's steps up to its fork point, less a replaced one); only the step's role and address,
 * and the two timestamps of its duration, are read per member: its newest few step nodes, or its chain
 * index (one row) and two step nodes.
 */
export async function compareFamily(
  store: Pick<Store, "objects" | "refs">,
  target: CompareTarget,
  reference: string,
  options: CompareFamilyOptions = {},
): Promise<CompareResult> {
  const direct = options.direct === true;
  const sort = options.sort ?? null;
  let original: ThreadRecord | null;
  let at: CompareResult["at"] = null;
  let workflow: string;
  let members: Member[];
  if (target.thread !== null) {
    original = target.thread;
    workflow = original.workflow;
    const tree = await buildFamilyTree(store, original);
    const node = findNode(tree.roots, original.id);
    members = node === null ? [] : familyOf(node, null, 0, direct);
  } else {
    const chain = await readChain(store, target.address);
    at = { address: target.address, step: chain.steps.length };
    original = await findForkParent(store, { ...at, start: chain.startAddress });
    const anyRelative = original ?? (await store.refs.listThreads({ start: chain.startAddress, limit: 1 })).threads[0];
    workflow = anyRelative?.workflow ?? "";
    members = [];
    if (anyRelative !== undefined) {
      const tree = await buildFamilyTree(store, anyRelative);
      const originalNode = original === null ? null : findNode(tree.roots, original.id);
      if (originalNode !== null) members.push({ node: originalNode, depth: 0, parent: null });
      const seen = new Set(members.map((member) => member.node.thread));
      for (const fork of allNodes(tree.roots)) {
        if (fork.forkedFrom?.address !== target.address || seen.has(fork.thread)) continue;
        const parent =
          originalNode !== null && fork.forkedFrom.thread === originalNode.thread ? originalNode.thread : null;
        // `direct` keeps the forks made at the node, without theirs.
        const forkFamily = direct ? [{ node: fork, depth: 1, parent }] : familyOf(fork, parent, 1, false);
        for (const member of forkFamily) {
          if (seen.has(member.node.thread)) continue;
          seen.add(member.node.thread);
          members.push(member);
        }
      }
    }
  }

  options.trace?.("family read");
  const originalId = original?.id ?? null;
  const byId = new Map(members.map((member) => [member.node.thread, member]));
  const rows = await mapConcurrently(members, READ_CONCURRENCY, (member) =>
    rowOf(store, member, partingPoint(member, byId, originalId)),
  );
  options.trace?.("rows read");
  if (sort !== null) {
    const [first, ...forks] = rows;
    const sorted = forks.sort((left, right) => compareRows(left, right, sort));
    rows.splice(0, rows.length, ...(first === undefined ? [] : [first]), ...sorted);
  }
  return { reference, workflow, original: originalId, at, direct, sort, rows };
}

/**
 * The steps a fork shares with its parent: up to its fork point, less the step whose reply it replaced.
 * A `role:` branch shares its parent's steps up to the fan-out step; a `workflow:` branch none (its chain is its own).
 */
function keptSteps(node: FamilyTreeNode): number {
  if (node.branchedAt === null) return 0;
  if (node.kind === "branch") return node.branchOf?.role === null ? 0 : node.branchedAt;
  return Math.max(0, node.branchedAt - (node.replaced ? 1 : 0));
}

/**
 * How many steps a member shares with the original, and whether the first step it does not share is a
 * replaced reply: up its lineage to the original, the fewest steps any fork on the way kept (the fork
 * nearest the member wins a tie, since the step after them is its own). Null for the original itself.
 * A member whose lineage does not reach the original (a fork at a node no thread holds) is measured
 * against its own parent.
 */
function partingPoint(
  member: Member,
  byId: ReadonlyMap<string, Member>,
  originalId: string | null,
): { shared: number; replaced: boolean } | null {
  if (member.node.thread === originalId) return null;
  let shared = Number.POSITIVE_INFINITY;
  let replaced = false;
  const seen = new Set<string>();
  let current: Member | undefined = member;
  while (current !== undefined && current.node.thread !== originalId && !seen.has(current.node.thread)) {
    seen.add(current.node.thread);
    const kept = keptSteps(current.node);
    if (kept < shared) {
      shared = kept;
      replaced = current.node.replaced;
    }
    current = current.parent === null ? undefined : byId.get(current.parent);
  }
  return { shared: shared === Number.POSITIVE_INFINITY ? 0 : shared, replaced };
}

async function rowOf(
  store: Pick<Store, "objects" | "refs">,
  member: Member,
  parting: { shared: number; replaced: boolean } | null,
): Promise<CompareRow> {
  const { node } = member;
  const origin = node.forkedFrom;
  const ownFrom = origin === null && node.kind !== "branch" ? 0 : keptSteps(node);
  // A replaced reply was written at fork time, not run: the clock starts at the step after it.
  const firstRun = origin !== null && node.replaced ? ownFrom + 1 : ownFrom;
  const partsAt = parting !== null && node.stepCount > parting.shared ? parting.shared : null;
  const needed = [
    partsAt,
    firstRun < node.stepCount ? firstRun : null,
    firstRun < node.stepCount ? node.stepCount - 1 : null,
  ];
  const steps = await readSteps(
    store,
    node,
    needed.filter((index): index is number => index !== null),
  );
  // The tree leaves out why a thread failed: only failed members' records are read again for it.
  const failure = node.status === "failed" ? (await store.refs.getThread(node.thread))?.failure?.code : undefined;
  let durationMs: number | null = null;
  if (firstRun < node.stepCount) {
    const first = steps.get(firstRun)?.node as ThreadStepNode;
    const last = steps.get(node.stepCount - 1)?.node as ThreadStepNode;
    durationMs = Math.max(0, Date.parse(last.completedAt) - Date.parse(first.startedAt));
  }
  let parts: CompareParting | null = null;
  if (partsAt !== null && parting !== null) {
    const step = steps.get(partsAt) as ReadStep;
    parts = { step: partsAt + 1, role: step.role, address: step.address, replaced: parting.replaced };
  }
  return {
    thread: node.thread,
    status: node.status,
    ...(node.outcome === undefined ? {} : { outcome: node.outcome }),
    ...(failure === undefined ? {} : { failure }),
    depth: member.depth,
    parent: member.parent,
    forkedAt:
      origin === null || node.branchedAt === null
        ? null
        : { step: node.branchedAt, address: origin.address, replaced: node.replaced },
    head: node.head,
    stepCount: node.stepCount,
    ownSteps: countChainSteps({
      stepCount: node.stepCount,
      forkedFrom: node.forkedFrom,
      branchOf: node.kind === "branch" ? node.branchOf : undefined,
    }).taken,
    usage: node.usage,
    tokens: node.usage.inputTokens + node.usage.outputTokens,
    durationMs,
    parts,
  };
}

/** A step of a member's chain: its address and role, and its node where the duration needs it. */
interface ReadStep extends ChainStep {
  node?: ThreadStepNode;
}

/**
 * A member's steps at these positions (0-based). Most forks are compared by their last few steps: those
 * are read back from the head, one node each; further back, the chain index (one row) gives their
 * addresses and roles, and only the nodes a duration needs (its first own step and its last) are read.
 */
async function readSteps(
  store: Pick<Store, "objects" | "refs">,
  node: FamilyTreeNode,
  positions: readonly number[],
): Promise<Map<number, ReadStep>> {
  const steps = new Map<number, ReadStep>();
  if (positions.length === 0) return steps;
  const lowest = Math.min(...positions);
  if (node.stepCount - lowest <= WALK_BACK_STEPS) {
    let address: string | null = node.head;
    for (let index = node.stepCount - 1; index >= lowest && address !== null; index--) {
      const step = await stepNode(store, address);
      steps.set(index, { address, role: step.role, node: step });
      address = step.prev;
    }
    if (positions.every((position) => steps.has(position))) return steps;
    steps.clear();
  }
  const chain = await chainSteps(store, node);
  for (const position of positions) {
    const step = chain[position];
    if (step !== undefined) steps.set(position, { ...step });
  }
  const withNodes = [node.stepCount - 1, ...positions.filter((position) => position !== node.stepCount - 1)];
  await Promise.all(
    [...new Set(withNodes)].map(async (position) => {
      const step = steps.get(position);
      if (step !== undefined) step.node = await stepNode(store, step.address);
    }),
  );
  return steps;
}

/**
 * A member's steps (address and role), oldest first: its chain index (one row) when it ends at the
 * member's head with as many steps as its record counts, else its chain read from the head.
 */
async function chainSteps(store: Pick<Store, "objects" | "refs">, node: FamilyTreeNode): Promise<readonly ChainStep[]> {
  const index = await store.refs.recallChainIndex(node.thread);
  if (index !== null && index.steps.length === node.stepCount && index.steps.at(-1)?.address === node.head) {
    return index.steps;
  }
  return (await readChain(store, node.head, { thread: { id: node.thread, stepCount: node.stepCount } })).steps;
}

async function stepNode(store: Pick<Store, "objects">, address: string): Promise<ThreadStepNode> {
  return storedNodeAs<ThreadStepNode>("thread-step/1", address, await store.objects.get(address));
}

/** The node and its forks, in family order (each fork after its parent); only its own forks when `direct`. */
function familyOf(node: FamilyTreeNode, parent: string | null, depth: number, direct: boolean): Member[] {
  const members: Member[] = [{ node, depth, parent }];
  const stack: Member[] = [];
  const pushChildren = (of: Member) => {
    for (const child of [...of.node.children].reverse()) {
      stack.push({ node: child, depth: of.depth + 1, parent: of.node.thread });
    }
  };
  pushChildren(members[0] as Member);
  while (stack.length > 0) {
    const next = stack.pop() as Member;
    members.push(next);
    if (!direct) pushChildren(next);
  }
  return members;
}

function findNode(roots: readonly FamilyTreeNode[], id: string): FamilyTreeNode | null {
  for (const node of allNodes(roots)) if (node.thread === id) return node;
  return null;
}

function* allNodes(roots: readonly FamilyTreeNode[]): Generator<FamilyTreeNode> {
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as FamilyTreeNode;
    yield node;
    for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index] as FamilyTreeNode);
  }
}

/** Ascending; a row without the value (no parting point, no duration, no outcome) last. */
function compareRows(left: CompareRow, right: CompareRow, key: CompareSortKey): number {
  const a = sortValue(left, key);
  const b = sortValue(right, key);
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function sortValue(row: CompareRow, key: CompareSortKey): number | string | null {
  switch (key) {
    case "parts":
      return row.parts?.step ?? null;
    case "steps":
      return row.ownSteps;
    case "cost":
      return row.usage.costUsd;
    case "tokens":
      return row.tokens;
    case "duration":
      return row.durationMs;
    case "status":
      return row.status;
    case "outcome":
      return row.outcome === undefined ? null : `${row.outcome.status ?? ""} ${row.outcome.role}`;
  }
}

/** `map` over the items with at most `limit` calls in flight, the results in the items' order. */
async function mapConcurrently<Item, Result>(
  items: readonly Item[],
  limit: number,
  map: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  const work = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index] as Item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, work));
  return results;
}
