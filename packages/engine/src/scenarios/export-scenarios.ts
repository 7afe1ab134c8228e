import type { Store } from "@uwf/cas";
import type { ScenarioDocument, ScenarioThread, ThreadRecord } from "@uwf/protocol";
import { resolveThread } from "../thread/resolve-thread.ts";
import { exportThreadScenario } from "./export-thread-scenario.ts";

export interface ExportScenariosOptions {
  store: Pick<Store, "objects" | "refs">;
  /** Thread ids or unique prefixes, in the order the file lists them. */
  threads: readonly string[];
  /** A thread whose forks (at any depth) are exported too, after it. */
  forksOf?: string;
}

export interface ExportedScenarios {
  document: ScenarioDocument;
  threads: ScenarioThread[];
}

/**
 * The scenario of each named thread, then of the `forksOf` thread and its forks (oldest first); a
 * thread named twice is exported once. One thread gives a file in the scripted agent's single-thread
 * format (`{ steps }`, its thread's fields beside); more give `{ threads: [...] }`, from which
 * `--agent scripted:FILE#THREAD` picks one. An unknown thread is refused (ThreadNotFoundError) before anything is read.
 */
export async function exportScenarios(options: ExportScenariosOptions): Promise<ExportedScenarios> {
  const { store } = options;
  const records: ThreadRecord[] = [];
  for (const reference of options.threads) records.push(await resolveThread(store.refs, reference));
  if (options.forksOf !== undefined) {
    const parent = await resolveThread(store.refs, options.forksOf);
    records.push(parent, ...(await forksOldestFirst(store, parent.id)));
  }
  const unique = [...new Map(records.map((record) => [record.id, record])).values()];
  const threads: ScenarioThread[] = [];
  for (const record of unique) threads.push(await exportThreadScenario(store, record));
  const only = threads.length === 1 ? threads[0] : undefined;
  return { document: only ?? { threads }, threads };
}

/** Every fork of `thread`, at any depth, oldest first (ids are time-ordered). */
async function forksOldestFirst(store: Pick<Store, "refs">, thread: string): Promise<ThreadRecord[]> {
  const forks: ThreadRecord[] = [];
  const pageSize = 500;
  for (let offset = 0; ; offset += pageSize) {
    const page = await store.refs.listThreads({ forksOf: { thread, recursive: true }, limit: pageSize, offset });
    forks.push(...page.threads);
    if (page.threads.length < pageSize) break;
  }
  return forks.sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
}
