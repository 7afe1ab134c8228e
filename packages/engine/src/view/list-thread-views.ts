import type { ListThreadsQuery, ListThreadsResult, RefStore, Store } from "@uwf/cas";
import type { LeaseHolder, ListedThread, ListResult, ThreadRecord, ThreadStatus } from "@uwf/protocol";
import { listRunningThreads } from "../lease/list-running-threads.ts";
import { resolveThread } from "../thread/resolve-thread.ts";
import { loadThreadView } from "./load-thread-view.ts";
import { listedThreadOf } from "./thread-view-results.ts";
import { toShownThread } from "./to-shown-thread.ts";

/** Which threads a listing shows (`uwf list`'s flags, `GET /api/threads`'s query, MCP's `list`), checked by the caller. */
export interface ThreadListQuery {
  status?: ThreadStatus;
  workflow?: string;
  /** Only the threads this schedule started. */
  scheduledBy?: string;
  /** Only the ended threads whose outcome's `$status` is this. */
  outcome?: string;
  /** Only the forks of this thread (id or unique prefix), and with `recursive` theirs, at any depth. */
  forksOf?: { thread: string; recursive: boolean };
  /** Also the forks explorations made, which are left out otherwise. */
  explorations?: boolean;
  /** Only threads whose step lease is held now, each with its holder. */
  running?: boolean;
  /** Only threads whose id, workflow, prompt, roles or field values hold a word starting with each of its words. */
  search?: string;
  /** At most this many; undefined for all. */
  limit?: number;
  offset?: number;
}

export interface ListThreadViewsOptions {
  /** The clock and host a lease is judged by (`running`). */
  now: Date;
  host: string;
  /** Told of each listed thread whose head is missing or corrupt (it is listed as `corrupt`). */
  onUnreadable?(thread: ThreadRecord, error: unknown): void;
}

/**
 * Past this many listed threads, heads are only checked to exist (a stat), not read and re-hashed:
 * a page a person reads is fully checked, while a listing of a large store stays a ref-store read.
 */
export const FULL_HEAD_CHECK_LIMIT = 1000;

/**
 * A page of threads, newest first, each as every view lists it: the ref store's records (a search, the
 * running ones, or a filtered listing), each head checked (a thread whose head is missing or corrupt is
 * listed as `corrupt`), its budget counting its branches' spend, and a timed suspension's deadline.
 */
export async function listThreadViews(
  store: Store,
  query: ThreadListQuery,
  options: ListThreadViewsOptions,
): Promise<ListResult> {
  const { status, workflow, limit } = query;
  const offset = query.offset ?? 0;
  const parent = query.forksOf === undefined ? undefined : await resolveThread(store.refs, query.forksOf.thread);
  const listQuery: ListThreadsQuery = {
    status,
    workflow,
    scheduledBy: query.scheduledBy,
    outcome: query.outcome,
    forksOf: parent === undefined ? undefined : { thread: parent.id, recursive: query.forksOf?.recursive === true },
    ...(query.explorations === true ? {} : { explorations: false }),
    limit,
    offset,
  };
  const leases = new Map<string, LeaseHolder>();
  const { threads, total, more } =
    query.search !== undefined
      ? await store.refs.searchThreads({ text: query.search, status, workflow, limit, offset })
      : query.running === true
        ? { ...(await listRunning(store.refs, listQuery, leases, options.now, options.host)), more: false }
        : { ...(await store.refs.listThreads(listQuery)), more: false };
  const readHeads = threads.length <= FULL_HEAD_CHECK_LIMIT;
  const listed: ListedThread[] = await Promise.all(
    threads.map(async (thread) => {
      try {
        // The budget column counts a parent's branches, as its steps are checked; a suspension with a
        // suspendTimeout shows when it runs out.
        const view = await loadThreadView(store, thread, { head: readHeads ? "read" : "exists", wait: true });
        return withLease(listedThreadOf(view), leases.get(thread.id));
      } catch (error) {
        options.onUnreadable?.(thread, error);
        return withLease({ ...toShownThread(thread), status: "corrupt" as const }, leases.get(thread.id));
      }
    }),
  );
  return { threads: listed, total, limit: limit ?? null, offset, ...(more ? { more } : {}) };
}

/** The threads being stepped now that match the filters, a page of them, and each one's lease holder. */
async function listRunning(
  refs: RefStore,
  query: ListThreadsQuery,
  leases: Map<string, LeaseHolder>,
  now: Date,
  host: string,
): Promise<ListThreadsResult> {
  const matching = (await listRunningThreads(refs, now, host)).filter(
    ({ record }) =>
      (query.status === undefined || record.status === query.status) &&
      (query.workflow === undefined || record.workflow === query.workflow) &&
      (query.outcome === undefined || record.outcome?.status === query.outcome),
  );
  for (const { record, lease } of matching) {
    const { host, pid, acquiredAt, expiresAt } = lease;
    leases.set(record.id, { host, pid, acquiredAt, expiresAt });
  }
  const offset = query.offset ?? 0;
  const page = matching.slice(offset, query.limit === undefined ? undefined : offset + query.limit);
  return { threads: page.map(({ record }) => record), total: matching.length };
}

function withLease<Thread extends ListedThread>(thread: Thread, lease: LeaseHolder | undefined): Thread {
  return lease === undefined ? thread : { ...thread, lease };
}
