import type { ListThreadsQuery, ThreadRefs } from "@uwf/cas";
import { resolveThread } from "@uwf/engine";
import type { EvalSource, ThreadRecord, ThreadStatus } from "@uwf/protocol";
import { NothingToEvaluateError } from "../errors/nothing-to-evaluate-error.ts";

export interface ThreadSelection {
  /** Thread ids or prefixes, each scored. */
  threads?: readonly string[];
  /** The forks of this thread (id or prefix), and with `recursive` their forks at any depth. */
  forksOf?: string;
  recursive?: boolean;
  /** Only threads of this workflow (registry name): a filter of the threads named, or alone, every such thread. */
  workflow?: string;
  /** Only threads standing in this status: likewise. */
  status?: ThreadStatus;
}

/** How many threads one page of the ref store brings while a selection is listed. */
const PAGE = 1000;

/**
 * The threads a selection names, each once, in the order named (threads, then the family, newest first
 * as `list` gives it), filtered by workflow and status; with only filters, every thread they match.
 */
export async function selectThreads(
  refs: ThreadRefs,
  selection: ThreadSelection,
): Promise<{ records: ThreadRecord[]; source: Extract<EvalSource, { kind: "selection" }> }> {
  const named = selection.threads ?? [];
  if (
    named.length === 0 &&
    selection.forksOf === undefined &&
    selection.workflow === undefined &&
    selection.status === undefined
  ) {
    throw new NothingToEvaluateError(
      "nothing to evaluate: name threads (or - for stdin), --forks-of THREAD, --workflow, --status, or --suite FILE",
    );
  }
  const found = new Map<string, ThreadRecord>();
  for (const reference of named) {
    const record = await resolveThread(refs, reference);
    found.set(record.id, record);
  }
  const namedIds = [...found.keys()];
  const parent = selection.forksOf === undefined ? undefined : await resolveThread(refs, selection.forksOf);
  const forksOf = parent === undefined ? undefined : { thread: parent.id, recursive: selection.recursive === true };
  if (forksOf !== undefined || named.length === 0) {
    const query: ListThreadsQuery = { forksOf, workflow: selection.workflow, status: selection.status };
    for await (const record of listAll(refs, query)) found.set(record.id, record);
  }
  const records = [...found.values()].filter(
    (record) =>
      (selection.workflow === undefined || record.workflow === selection.workflow) &&
      (selection.status === undefined || record.status === selection.status),
  );
  if (records.length === 0) throw new NothingToEvaluateError("nothing to evaluate: no thread matches the selection");
  return {
    records,
    source: {
      kind: "selection",
      threads: namedIds,
      forksOf: forksOf ?? null,
      workflow: selection.workflow ?? null,
      status: selection.status ?? null,
    },
  };
}

async function* listAll(refs: ThreadRefs, query: ListThreadsQuery): AsyncIterable<ThreadRecord> {
  for (let offset = 0; ; offset += PAGE) {
    const page = await refs.listThreads({ ...query, limit: PAGE, offset });
    yield* page.threads;
    if (page.threads.length < PAGE) return;
  }
}
