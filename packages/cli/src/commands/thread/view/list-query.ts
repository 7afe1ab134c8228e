import type { ListThreadViewsOptions, ThreadListQuery } from "@uwf/engine";
import { messageOf, THREAD_STATUSES, type ThreadStatus } from "@uwf/protocol";
import { UsageError } from "../../../errors/usage-error.ts";

// What `uwf list`, the web UI's `GET /api/threads` and MCP's `list` share: the flags checked and turned into
// the engine's query (listThreadViews). No schema library here: `list` is a hot command (issue 43).

export interface ListThreadsOptions {
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
  /** Also the forks explorations made (`uwf explore`), which are left out otherwise. */
  explorations?: boolean;
  /** Only threads whose id, workflow, prompt, roles or field values hold a word starting with each of its words. */
  search?: string;
}

/** How many threads `uwf list` shows when no `--limit` is given; `--limit 0` lists them all. */
export const DEFAULT_LIST_LIMIT = 30;

/**
 * `list`'s flags (the API's query, MCP's input) as the engine's listing query (listThreadViews), checked
 * as `list` checks them before it opens the store: a usage error names the flag.
 */
export function listQueryOf(options: ListThreadsOptions): ThreadListQuery {
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
  return {
    status,
    workflow: options.workflow,
    scheduledBy: options.schedule,
    outcome: options.outcome,
    ...(options.forksOf === undefined
      ? {}
      : { forksOf: { thread: options.forksOf, recursive: options.recursive === true } }),
    explorations: options.explorations === true,
    running: options.running === true,
    ...(options.search === undefined ? {} : { search: options.search }),
    limit: options.limit === undefined ? DEFAULT_LIST_LIMIT : options.limit === 0 ? undefined : options.limit,
    offset: options.offset ?? 0,
  };
}

/** A listing's clock and host, and each unreadable thread told as `list` tells it: a warning naming the thread. */
export function listEnvironment(context: {
  now(): Date;
  host: string;
  warn(message: string): void;
}): ListThreadViewsOptions {
  return {
    now: context.now(),
    host: context.host,
    onUnreadable: (thread, error) => context.warn(`thread ${thread.id}: ${messageOf(error)}`),
  };
}
