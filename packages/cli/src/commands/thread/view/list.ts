import type { ListThreadsQuery, ListThreadsResult, RefStore } from "@uwf/cas";
import { listedThreadOf, listRunningThreads, loadThreadView, resolveThread, toShownThread } from "@uwf/engine";
import {
  type LeaseHolder,
  type ListedThread,
  type ListResult,
  messageOf,
  THREAD_STATUSES,
  type ThreadStatus,
} from "@uwf/protocol";
import { UsageError } from "../../../errors/usage-error.ts";
import { formatThreadList } from "../../../format/thread/format-thread-list.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import { stdoutColumns } from "../../../terminal/standard-streams.ts";

export interface ListCommandOptions {
  status?: string;
  workflow?: string;
  /** Only the threads this schedule started. */
  schedule?: string;
  /** Only the ended threads whose outcome's `$status` is this. */
  outcome?: string;
  /** At most this many; 0 for all (default DEFAULT_LIST_LIMIT). */
  limit?: number;
  offset?: number;
  /** Only the forks of this thread (id or prefix)... */
  forksOf?: string;
  /** ...and theirs, at any depth. */
  recursive?: boolean;
  /** Only threads whose step lease is held now, each with its holder. */
  running?: boolean;
  /** Every column, however wide the terminal (else the table fits it). */
  wide?: boolean;
  /** Also the forks explorations made (`uwf explore`), which are left out otherwise. */
  explorations?: boolean;
  /** Only threads whose id, workflow, prompt, roles or field values hold a word starting with each of its words. */
  search?: string;
}

/** How many threads `uwf list` shows when no `--limit` is given; `--limit 0` lists them all. */
export const DEFAULT_LIST_LIMIT = 30;

/**
 * Past this many listed threads, heads are only checked to exist (a stat), not read and re-hashed:
 * a page a person reads is fully checked, while `list --json` of a large store stays a ref-store read.
 */
export const FULL_HEAD_CHECK_LIMIT = 1000;

/** Reads the ref store, plus each listed head to flag threads whose head is missing or corrupt. */
export async function listCommand(options: ListCommandOptions, context: CommandContext) {
  // THREAD_STATUSES, not threadStatusSchema: `list` should not load the schema library (issue 43).
  const status = options.status as ThreadStatus | undefined;
  if (status !== undefined && !THREAD_STATUSES.includes(status)) {
    throw new UsageError(`--status ${options.status}: expected one of ${THREAD_STATUSES.join(", ")}`);
  }
  if (options.recursive === true && options.forksOf === undefined) {
    throw new UsageError("--recursive lists the forks of forks: it needs --forks-of THREAD");
  }
  if (options.running === true && options.forksOf !== undefined) {
    throw new UsageError("--running lists the threads being stepped now: give it without --forks-of");
  }
  if (options.search !== undefined) {
    const others = { forksOf: "--forks-of", running: "--running", outcome: "--outcome", schedule: "--schedule" };
    const given = Object.entries(others).find(([key]) => options[key as keyof typeof others] !== undefined);
    if (given !== undefined) throw new UsageError(`--search combines with --status and --workflow, not ${given[1]}`);
  }
  const store = await context.openStore({ create: false });
  const offset = options.offset ?? 0;
  const limit = options.limit === undefined ? DEFAULT_LIST_LIMIT : options.limit === 0 ? undefined : options.limit;
  const parent = options.forksOf === undefined ? undefined : await resolveThread(store.refs, options.forksOf);
  const query = {
    status,
    workflow: options.workflow,
    scheduledBy: options.schedule,
    outcome: options.outcome,
    forksOf: parent === undefined ? undefined : { thread: parent.id, recursive: options.recursive === true },
    ...(options.explorations === true ? {} : { explorations: false }),
    limit,
    offset,
  };
  const leases = new Map<string, LeaseHolder>();
  const { threads, total, more } =
    options.search !== undefined
      ? await store.refs.searchThreads({ text: options.search, status, workflow: options.workflow, limit, offset })
      : options.running === true
        ? { ...(await listRunning(store.refs, query, leases, context.now(), context.host)), more: false }
        : { ...(await store.refs.listThreads(query)), more: false };
  const readHeads = threads.length <= FULL_HEAD_CHECK_LIMIT;
  const listed: ListedThread[] = await Promise.all(
    threads.map(async (thread) => {
      try {
        // The budget column counts a parent's branches, as its steps are checked; a suspension with a
        // suspendTimeout shows when it runs out.
        const view = await loadThreadView(store, thread, { head: readHeads ? "read" : "exists", wait: true });
        return withLease(listedThreadOf(view), leases.get(thread.id));
      } catch (error) {
        const reason = messageOf(error);
        context.warn(`thread ${thread.id}: ${reason}`);
        return withLease({ ...toShownThread(thread), status: "corrupt" as const }, leases.get(thread.id));
      }
    }),
  );
  const result: ListResult = { threads: listed, total, limit: limit ?? null, offset, ...(more ? { more } : {}) };
  const shown = offset + listed.length;
  return {
    result,
    format: (value: ListResult, color: boolean) =>
      formatThreadList(value, color, { width: options.wide === true ? undefined : stdoutColumns(context.env) }),
    hint:
      shown < total || more
        ? `${shown} of ${total}${more ? "+" : ""} threads; more with --offset ${shown}, all with --limit 0`
        : undefined,
  };
}

/** `list --running`: the threads being stepped now that match the filters, a page of them, and each one's lease holder. */
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
