import type { Lease, ThreadRecord } from "@uwf/protocol";
import type { ClaimThreadOptions, LeaseRefs } from "../refs/lease-refs.ts";
import { checkLeaseAgent, checkLeaseHead } from "./check-lease-agent.ts";
import { checkClaimOptions, checkLeaseOptions, checkTime, checkTtl } from "./check-lease-options.ts";

/**
 * The memory ref store's step leases, with the SQLite store's semantics: one lease per thread in
 * `leases`, taken over once expired or when its holder is named by `takeOver`; `threads` is what
 * `claimThread` chooses from. Leases go in and come out as copies.
 */
export function createMemoryLeaseMethods(
  threads: ReadonlyMap<string, ThreadRecord>,
  leases: Map<string, Lease>,
): LeaseRefs {
  return {
    async acquireLease(threadId, options) {
      checkLeaseOptions(options);
      const holder = leases.get(threadId);
      const now = options.now.getTime();
      if (holder !== undefined && Date.parse(holder.expiresAt) > now && holder.token !== options.takeOver) {
        return { acquired: false, holder: { ...holder } };
      }
      const lease = newLease(threadId, options, holder);
      leases.set(threadId, lease);
      return { acquired: true, lease: { ...lease }, replaced: holder === undefined ? null : { ...holder } };
    },
    async claimThread(options) {
      checkClaimOptions(options);
      const now = options.now.getTime();
      const runnable = [...threads.values()]
        .filter((thread) => thread.status === "active" && thread.queued === true)
        .filter((thread) => options.workflow === undefined || thread.workflow === options.workflow)
        .filter((thread) => options.skip?.includes(thread.id) !== true)
        .filter((thread) => {
          const holder = leases.get(thread.id);
          return holder === undefined || Date.parse(holder.expiresAt) <= now;
        })
        .sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
      const thread = runnable[0];
      if (thread === undefined) return null;
      const holder = leases.get(thread.id);
      const lease = newLease(thread.id, options, holder);
      leases.set(thread.id, lease);
      const replaced = holder === undefined ? null : { ...holder };
      return { thread: structuredClone(thread), lease: { ...lease }, replaced };
    },
    async renewLease(lease, ttlMs, now) {
      checkTtl(ttlMs);
      const holder = leases.get(lease.threadId);
      if (holder === undefined || holder.token !== lease.token) return null;
      holder.expiresAt = new Date(now.getTime() + ttlMs).toISOString();
      return { ...holder };
    },
    async recordLeaseAgent(lease, agent) {
      const checked = checkLeaseAgent(agent);
      const holder = leases.get(lease.threadId);
      if (holder === undefined || holder.token !== lease.token) return false;
      holder.agentGroup = checked?.group ?? null;
      holder.agentStart = checked?.start ?? null;
      return true;
    },
    async recordLeaseHead(lease, head) {
      const checked = checkLeaseHead(head);
      const holder = leases.get(lease.threadId);
      if (holder === undefined || holder.token !== lease.token) return false;
      holder.intendedHead = checked;
      return true;
    },
    async releaseLease(lease) {
      const holder = leases.get(lease.threadId);
      if (holder === undefined || holder.token !== lease.token) return null;
      const released = { ...holder };
      const intended = holder.intendedHead;
      if (intended !== null && threads.has(lease.threadId) && threads.get(lease.threadId)?.head !== intended) {
        leases.set(lease.threadId, unsettledLease(holder));
      } else leases.delete(lease.threadId);
      return released;
    },
    async requestCancel(threadId, now) {
      const holder = leases.get(threadId);
      if (holder === undefined || Date.parse(holder.expiresAt) <= checkTime(now)) return null;
      holder.cancelRequestedAt ??= now.toISOString();
      return { ...holder };
    },
    async forgetLease(lease) {
      if (leases.get(lease.threadId)?.token !== lease.token) return false;
      return leases.delete(lease.threadId);
    },
    listLeases: async () =>
      [...leases.values()]
        .sort((left, right) => (left.threadId < right.threadId ? -1 : left.threadId > right.threadId ? 1 : 0))
        .map((lease) => ({ ...lease })),
  };
}

/** A new lease for this holder, as a fresh acquire or claim makes it: no agent yet, and the cancel request of the lease it replaces. */
/** A released lease whose intended head is unsettled, as releaseLease leaves it: expired, held by no process. */
function unsettledLease(holder: Lease): Lease {
  return {
    ...holder,
    token: crypto.randomUUID(),
    pid: 0,
    processStart: null,
    agentGroup: null,
    agentStart: null,
    expiresAt: holder.acquiredAt,
    cancelRequestedAt: null,
  };
}

function newLease(threadId: string, options: ClaimThreadOptions, replaced: Lease | undefined): Lease {
  return {
    threadId,
    token: crypto.randomUUID(),
    pid: options.pid,
    host: options.host,
    processStart: options.processStart ?? null,
    agentGroup: null,
    agentStart: null,
    acquiredAt: options.now.toISOString(),
    expiresAt: new Date(options.now.getTime() + options.ttlMs).toISOString(),
    cancelRequestedAt: replaced?.cancelRequestedAt ?? null,
    intendedHead: replaced?.intendedHead ?? null,
  };
}
