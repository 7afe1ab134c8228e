import type { ListThreadsQuery, RefStore, Store } from "@uwf/cas";
import type { ReplayResult, ThreadRecord } from "@uwf/protocol";
import { resolveThread } from "../thread/resolve-thread.ts";
import type { ReplayWorkflow } from "./load-replay-workflow.ts";
import { replayThread } from "./replay-thread.ts";

export interface ReplayThreadsOptions {
  store: Store;
  /** The workflow to route through (loadReplayWorkflow). */
  target: ReplayWorkflow;
  /** The threads to replay: ids or unique prefixes, each resolved before any is replayed. */
  threads?: readonly string[];
  /** Also the family of this thread (id or prefix): it and its forks, at any depth. */
  forksOf?: string;
}

/** How many thread records one page of the ref store brings while a family is listed. */
const PAGE = 1000;

/**
 * Replays each named thread and each member of the `forksOf` family (once each, in the order named,
 * then the family as `list` gives it, newest first) through `target`. Every name is resolved first
 * (ThreadNotFoundError, AmbiguousThreadError), so a typo fails the whole command before anything is
 * read. Threads are replayed one after another: each reads only its own chain.
 */
export async function replayThreads(options: ReplayThreadsOptions): Promise<ReplayResult> {
  const { store, target } = options;
  const records = await selectReplayThreads(store.refs, options);
  const threads = [];
  for (const record of records) threads.push(await replayThread(store, record, target));
  const diverged = threads.filter((thread) => thread.result === "diverged").length;
  return {
    workflow: { name: target.name, address: target.address, file: target.file },
    threads,
    identical: threads.length - diverged,
    diverged,
  };
}

async function selectReplayThreads(refs: RefStore, options: ReplayThreadsOptions): Promise<ThreadRecord[]> {
  const found = new Map<string, ThreadRecord>();
  for (const reference of options.threads ?? []) {
    const record = await resolveThread(refs, reference);
    found.set(record.id, record);
  }
  if (options.forksOf !== undefined) {
    const parent = await resolveThread(refs, options.forksOf);
    found.set(parent.id, parent);
    for await (const record of listAll(refs, { forksOf: { thread: parent.id, recursive: true } })) {
      found.set(record.id, record);
    }
  }
  return [...found.values()];
}

async function* listAll(refs: RefStore, query: ListThreadsQuery): AsyncIterable<ThreadRecord> {
  for (let offset = 0; ; offset += PAGE) {
    const page = await refs.listThreads({ ...query, limit: PAGE, offset });
    yield* page.threads;
    if (page.threads.length < PAGE) return;
  }
}
