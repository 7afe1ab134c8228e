import type { BranchLink, NewBranch, Store } from "@uwf/cas";
import {
  type Address,
  type BranchesStartedEvent,
  type FanOutNode,
  type PlannedBranch,
  type ThreadRecord,
  type ThreadStartNode,
  ZERO_USAGE,
} from "@uwf/protocol";
import { compileWorkflow, validateStartInputs } from "@uwf/workflow";
import { storedNodeAs } from "../history/stored-node.ts";
import { predictNextRole } from "../routing/predict-next-role.ts";
import { newThreadId } from "../thread/new-thread-id.ts";
import { describePolicy, readFanOut } from "./read-fan-out.ts";

export interface EnsureBranchesOptions {
  store: Store;
  home: string;
  now(): Date;
  /** Ids for new branch threads; default a monotonic ULID, so a fan-out's branches list in their order. */
  newId?(): string;
  onBranchesStarted?(event: Omit<BranchesStartedEvent, "type" | "worker">): Promise<void> | void;
}

/** A waiting parent's fan-out: its plan (the `fan-out/1` node), the step that made it, and its branches' links. */
export interface FanOutState {
  plan: FanOutNode;
  step: number;
  address: Address;
  links: BranchLink[];
}

/**
 * The branches of a parent whose head step fanned out, made if they are not all there yet (DESIGN §4):
 * after the step that fanned out, and again by whoever touches the parent next when a crash came in
 * between. The ref store keeps one link per (parent, step, key), so however many processes do this at
 * once each branch is made once. Null when the parent's head did not fan out.
 */
export async function ensureBranches(
  parent: ThreadRecord,
  options: EnsureBranchesOptions,
): Promise<FanOutState | null> {
  const { store } = options;
  const plan = await readFanOut(store.objects, parent.head);
  if (plan === null) return null;
  const step = parent.stepCount;
  const address = parent.head as Address;
  const existing = await store.refs.listBranches(parent.id, step);
  if (existing.length >= plan.branches.length) return { plan, step, address, links: existing };
  const have = new Set(existing.map((link) => link.key));
  const start = storedNodeAs<ThreadStartNode>("thread-start/1", parent.start, await store.objects.get(parent.start));
  const entries: NewBranch[] = [];
  for (const [index, branch] of plan.branches.entries()) {
    if (have.has(branch.key)) continue;
    const record = await newBranchRecord(parent, { branch, step, address, start }, options);
    entries.push({
      link: { parent: parent.id, step, key: branch.key, index, thread: record.id, createdAt: record.createdAt },
      record,
    });
  }
  const links = await store.refs.createBranches(entries);
  const made = new Set(entries.map((entry) => entry.link.thread));
  // A `role:` branch's chain is its parent's: its chain index too, so its step reads one row, as a fork's does.
  const index = await store.refs.recallChainIndex(parent.id, { details: true }).catch(() => null);
  if (index !== null && (index.steps.at(-1)?.address ?? index.start) === address) {
    const roleBranches = new Set(
      entries.filter((entry) => entry.record?.branchOf?.role != null).map((entry) => entry.link.thread),
    );
    for (const link of links) {
      if (roleBranches.has(link.thread)) await store.refs.rememberChainIndex(link.thread, index).catch(() => {});
    }
  }
  if (links.some((link) => made.has(link.thread))) {
    await options.onBranchesStarted?.({
      thread: parent.id,
      step,
      join: plan.join.role,
      policy: describePolicy(plan.join.policy),
      branches: links.map((link) => ({ key: link.key, thread: link.thread, status: "active" })),
    });
  }
  return { plan, step, address, links };
}

interface BranchPlace {
  branch: PlannedBranch;
  step: number;
  address: Address;
  start: ThreadStartNode;
}

/**
 * A `role:` branch shares its parent's chain up to the fan-out step, as a fork does, and runs its role
 * next; a `workflow:` branch is a new thread of that workflow, started where the parent's agents run.
 * Neither has a budget of its own: what it spends counts against its parent's.
 */
async function newBranchRecord(
  parent: ThreadRecord,
  place: BranchPlace,
  options: EnsureBranchesOptions,
): Promise<ThreadRecord> {
  const { branch, step, address, start } = place;
  const id = (options.newId ?? newThreadId)();
  const createdAt = options.now().toISOString();
  const branchOf = { thread: parent.id, step, branch: branch.key, address, role: branch.role };
  const common = {
    id,
    status: "active",
    reason: null,
    createdAt,
    updatedAt: createdAt,
    forkedFrom: null,
    usage: ZERO_USAGE,
    branchOf,
    ...(parent.queued === true ? { queued: true } : {}),
    // An exploration's re-run keeps its branches with it: hidden from `list` and `tree` as it is.
    ...(parent.exploredBy === undefined ? {} : { exploredBy: { ...parent.exploredBy } }),
  } as const;
  if (branch.role !== null) {
    return {
      ...common,
      workflow: parent.workflow,
      workflowAddress: parent.workflowAddress,
      start: parent.start,
      head: address,
      next: branch.role,
      stepCount: step,
    };
  }
  // Loaded on demand: only a branch that runs another workflow reads one (and every step imports this file).
  const { resolveWorkflow } = await import("../workflows/resolve-workflow.ts");
  const resolved = await resolveWorkflow({
    store: options.store,
    reference: branch.workflow ?? "",
    cwd: start.cwd,
    home: options.home,
    now: options.now,
  });
  const inputs = validateStartInputs(resolved.workflow, branch.inputs ?? {});
  const node: ThreadStartNode = {
    type: "thread-start/1",
    workflow: resolved.address,
    prompt: branch.prompt,
    cwd: start.cwd,
  };
  if (Object.keys(inputs).length > 0) node.inputs = inputs;
  const [startAddress] = await options.store.objects.putMany([node], { durable: true });
  const history = {
    start: { prompt: node.prompt, workflow: resolved.workflow.name, cwd: node.cwd, inputs },
    thread: { id },
    steps: [],
  };
  return {
    ...common,
    workflow: resolved.workflow.name,
    workflowAddress: resolved.address,
    start: startAddress as Address,
    head: startAddress as Address,
    next: await predictNextRole(compileWorkflow(resolved.workflow), history, "new"),
    stepCount: 0,
  };
}
