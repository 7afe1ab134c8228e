import type { BranchLink } from "@uwf/cas";
import type { BranchesJoinedEvent, FanOutNode, ThreadFailure, ThreadRecord } from "@uwf/protocol";
import { ThreadBusyError } from "../errors/thread-busy-error.ts";
import { cancelThread } from "../lease/cancel-thread.ts";
import { STEP_LEASE_TTL_MS } from "../lease/step-lease-ttl.ts";
import { withThreadLease } from "../lease/with-thread-lease.ts";
import { crashPoint } from "./crash-point.ts";
import { endedOrDeleted } from "./ended-or-deleted.ts";
import { type EnsureBranchesOptions, ensureBranches, type FanOutState } from "./ensure-branches.ts";
import { type BranchStanding, decideJoin, isSettled } from "./join-policy.ts";
import { readFanOut } from "./read-fan-out.ts";

export interface SettleParentOptions extends EnsureBranchesOptions {
  host: string;
  onBranchesJoined?(event: Omit<BranchesJoinedEvent, "type" | "worker">): Promise<void> | void;
}

/** A waiting parent as settleParent left it, with its fan-out and its branches as they stood. */
export interface SettledParent {
  record: ThreadRecord;
  fanOut: FanOutState | null;
  standings: BranchStanding[];
}

/**
 * Looks at a waiting parent's branches and applies its join's policy (DESIGN §4): the parent becomes
 * `active` for its join step, or `failed` (code `branch-failed`) when the policy can no longer hold;
 * branches the join no longer needs are cancelled. Missing branches are made first (ensureBranches).
 * Done under the parent's lease, so it never races a cancel or a join step; a parent someone else holds
 * is left to them. Whoever finishes or cancels a branch calls this, and so does every touch of the parent.
 */
export async function settleParent(parentId: string, options: SettleParentOptions): Promise<SettledParent | null> {
  crashPoint("before-settle");
  // Two branches ending together both settle: the one that finds the parent's lease taken looks again
  // shortly, so the last branch's settling is never lost to the other's.
  for (let attempt = 1; ; attempt++) {
    const settled = await settleOnce(parentId, options);
    if (settled !== BUSY) return settled;
    if (attempt >= SETTLE_ATTEMPTS) {
      const record = await options.store.refs.getThread(parentId);
      return record === null ? null : { record, fanOut: null, standings: [] };
    }
    await Bun.sleep(SETTLE_RETRY_MS);
  }
}

const BUSY = Symbol("busy");
/** How often, and how far apart, a settle tries a parent whose lease someone else holds (a settle takes milliseconds). */
const SETTLE_ATTEMPTS = 40;
const SETTLE_RETRY_MS = 25;

async function settleOnce(parentId: string, options: SettleParentOptions): Promise<SettledParent | null | typeof BUSY> {
  const { store } = options;
  const before = await store.refs.getThread(parentId);
  if (before === null) return null;
  if (before.status !== "waiting") return { record: before, fanOut: null, standings: [] };
  try {
    return await withThreadLease(
      { refs: store.refs, threadId: parentId, ttlMs: STEP_LEASE_TTL_MS, host: options.host, now: options.now },
      async (lease) => {
        const record = await store.refs.getThread(parentId);
        if (record === null || record.status !== "waiting")
          return record === null ? null : { record, fanOut: null, standings: [] };
        const fanOut = await ensureBranches(record, options);
        if (fanOut === null) return { record, fanOut, standings: [] };
        const standings = await readStandings(options, fanOut);
        const decision = decideJoin(fanOut.plan.join, standings);
        if (decision.kind === "pending") return { record, fanOut, standings };
        for (const thread of decision.cancel) await cancelLoser(options, thread);
        const now = options.now().toISOString();
        const failure: ThreadFailure | undefined =
          decision.kind === "fail"
            ? { code: "branch-failed", message: decision.message, run: null, attempts: 1, failedAt: now }
            : undefined;
        const update =
          failure === undefined
            ? ({ status: "active", updatedAt: now } as const)
            : ({ status: "failed", failure, updatedAt: now } as const);
        lease.assertHeld();
        if (!(await store.refs.updateThread(record.id, record.head, update))) return { record, fanOut, standings };
        const settled = { ...record, ...update };
        await options.onBranchesJoined?.({
          thread: record.id,
          step: fanOut.step,
          branches: (await readStandings(options, fanOut)).map(({ key, thread, status }) => ({
            key,
            thread,
            status: status ?? "cancelled",
          })),
          cancelled: decision.cancel,
          ...(failure === undefined ? {} : { failure }),
        });
        return { record: settled, fanOut, standings };
      },
    );
  } catch (error) {
    // Someone settles the parent now (look again), or steps or cancels it (it no longer waits, then).
    if (error instanceof ThreadBusyError) return BUSY;
    throw error;
  }
}

/**
 * settleParent for whoever just moved one branch (its step, its end, its worker): first, without the
 * parent's lease, whether the join is plainly still pending — for `all` and `all-settled` one unsettled
 * branch is enough, looked for from the last branch (the likeliest still running), so each of a large
 * fan-out's branch steps reads a record or two and writes nothing instead of taking the lease and
 * reading every branch. Otherwise (or when branches are missing) settleParent decides under the lease.
 */
export async function settleParentAfterBranch(parentId: string, options: SettleParentOptions): Promise<void> {
  const { store } = options;
  const parent = await store.refs.getThread(parentId);
  if (parent === null || parent.status !== "waiting") return;
  const plan = await readFanOut(store.objects, parent.head);
  if (plan !== null) {
    const links = await completeLinks(store, parent, plan);
    if (links !== null && (await plainlyPending(options, plan, links))) return;
  }
  await settleParent(parentId, options);
}

/**
 * A fan-out's links once all of them exist, which never change after (a parent's links go only with the
 * parent): kept for the process's later branch steps, so each of a wide fan-out's branches does not read
 * every link again. Null while some are missing.
 */
async function completeLinks(
  store: SettleParentOptions["store"],
  parent: ThreadRecord,
  plan: FanOutNode,
): Promise<readonly BranchLink[] | null> {
  const key = `${parent.id} ${parent.stepCount}`;
  const known = COMPLETE_LINKS.get(key);
  if (known !== undefined) return known;
  const links = await store.refs.listBranches(parent.id, parent.stepCount);
  if (links.length < plan.branches.length) return null;
  if (COMPLETE_LINKS.size >= COMPLETE_LINKS_KEPT) COMPLETE_LINKS.delete(COMPLETE_LINKS.keys().next().value as string);
  COMPLETE_LINKS.set(key, links);
  return links;
}

const COMPLETE_LINKS = new Map<string, readonly BranchLink[]>();
const COMPLETE_LINKS_KEPT = 64;

async function plainlyPending(
  options: Pick<SettleParentOptions, "store">,
  plan: FanOutNode,
  links: readonly BranchLink[],
): Promise<boolean> {
  const { join } = plan;
  if (join.policy === "all-settled" || (join.policy === "all" && !join.failFast)) {
    for (let index = links.length - 1; index >= 0; index--) {
      const status = (await options.store.refs.getThread((links[index] as BranchLink).thread))?.status ?? null;
      if (!isSettled(status)) return true;
    }
    return false;
  }
  const standings = await readStandings(options, { links });
  return decideJoin(join, standings).kind === "pending";
}

export async function readStandings(
  options: Pick<SettleParentOptions, "store">,
  fanOut: { links: readonly BranchLink[] },
): Promise<BranchStanding[]> {
  return Promise.all(
    fanOut.links.map(async (link) => ({
      key: link.key,
      thread: link.thread,
      status: (await options.store.refs.getThread(link.thread))?.status ?? null,
    })),
  );
}

/** A branch the join no longer needs: cancelled now, or asked to stop when someone steps it (it then settles its parent again, to no effect). */
async function cancelLoser(options: SettleParentOptions, thread: string): Promise<void> {
  try {
    await cancelThread({ store: options.store, threadId: thread, host: options.host, now: options.now, waitMs: 0 });
  } catch (error) {
    // It ended meanwhile, or was deleted: nothing to cancel.
    if (!endedOrDeleted(error)) throw error;
  }
}
