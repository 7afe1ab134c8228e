import type { Store } from "@uwf/cas";
import { type ThreadRecord, ZERO_USAGE } from "@uwf/protocol";
import { readFanOut } from "../branches/read-fan-out.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";

/**
 * Writes a fork of a branch as a counterfactual of that branch alone (DESIGN §4): its parent is forked at
 * the fan-out step (waiting, with the parent's limits), and the parent's fork gets the same branches as
 * the parent, the forked one replaced by `fork` (whose `branchOf` already names the parent's fork), the
 * others shared. `options.parent` is the parent forked. Stepping the parent's fork then joins them. The parent's fork comes first; its links and
 * the branch's fork are made in one transaction.
 */
export async function forkParentWithBranch(
  store: Store,
  fork: ThreadRecord,
  options: { now: Date; parent: string },
): Promise<void> {
  const origin = fork.branchOf;
  if (origin === undefined) throw new ThreadNotFoundError(fork.id);
  const parent = await store.refs.getThread(options.parent);
  if (parent === null) throw new ThreadNotFoundError(options.parent);
  const plan = await readFanOut(store.objects, origin.address);
  const createdAt = options.now.toISOString();
  const parentFork: ThreadRecord = {
    id: origin.thread,
    workflow: parent.workflow,
    workflowAddress: parent.workflowAddress,
    start: parent.start,
    head: origin.address,
    status: "waiting",
    next: plan?.join.role ?? parent.next,
    reason: null,
    stepCount: origin.step,
    createdAt,
    updatedAt: createdAt,
    forkedFrom: { thread: parent.id, step: origin.step, address: origin.address, replaced: false },
    usage: ZERO_USAGE,
  };
  if (parent.budget !== undefined) parentFork.budget = { ...parent.budget, exceeded: null };
  if (parent.queued === true || fork.queued === true) parentFork.queued = true;
  if (parent.branchOf !== undefined) parentFork.branchOf = parent.branchOf;
  // Made for an exploration's re-run of the branch: tagged as the re-run is, so `list` leaves it out too.
  if (fork.exploredBy !== undefined) parentFork.exploredBy = { ...fork.exploredBy };
  await store.refs.createThread(parentFork);
  const links = await store.refs.listBranches(parent.id, origin.step);
  await store.refs.createBranches(
    links.map((link) => {
      const mine = link.key === origin.branch;
      return {
        link: { ...link, parent: parentFork.id, thread: mine ? fork.id : link.thread, createdAt },
        ...(mine ? { record: fork } : {}),
      };
    }),
  );
}
