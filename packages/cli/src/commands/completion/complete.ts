import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "@uwf/cas";
import type { CompletionCandidatesResult } from "@uwf/protocol";
import { openStoreFromEnvironment } from "../../home/open-store.ts";
import { resolveHome } from "../../home/resolve-home.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandTable } from "../table/define-command.ts";
import { type Candidate, completeWords } from "./complete-words.ts";

/** At most this many thread ids are offered: the newest, or those starting with what was typed. */
export const MAX_THREAD_CANDIDATES = 50;

/**
 * The hidden `uwf __complete WORD…` the completion scripts call on every Tab: the candidates for the
 * last word, thread ids and workflow names read from the store of the home the line names. It only
 * reads: a missing home is not created, and a store that cannot be read offers nothing from it. The
 * table it walks is given by the table's own entry for `__complete`.
 */
export function completeCommand(table: CommandTable) {
  return async (options: { words: string[] }, context: CommandContext) => {
    const completion = completeWords(options.words, table);
    const candidates = [...completion.candidates];
    if (completion.fromStore !== null) {
      const home =
        completion.home === undefined
          ? context.home
          : resolveHome({ flag: completion.home, env: context.env, cwd: context.cwd });
      candidates.push(...(await readStoreCandidates(home, context, completion.fromStore, completion.prefix)));
    }
    const result: CompletionCandidatesResult = { candidates, files: completion.files };
    return { result, format: formatCandidates };
  };
}

/** One candidate a line, `value<TAB>description`; then `:file` or `:directory` when the shell should add those. */
function formatCandidates(result: CompletionCandidatesResult): string {
  const lines = result.candidates.map(({ value, description }) =>
    description === null ? value : `${value}\t${description.replace(/\s+/g, " ")}`,
  );
  if (result.files !== null) lines.push(`:${result.files}`);
  return lines.join("\n");
}

async function readStoreCandidates(
  home: string,
  context: CommandContext,
  kind: "thread" | "workflow",
  prefix: string,
): Promise<Candidate[]> {
  let store: Store;
  try {
    store = await openStoreFromEnvironment(home, context.env, { create: false });
  } catch {
    return [];
  }
  try {
    return kind === "thread" ? await threadCandidates(store, prefix) : await workflowCandidates(store, home, prefix);
  } catch {
    return [];
  } finally {
    await store.close();
  }
}

async function threadCandidates(store: Store, prefix: string): Promise<Candidate[]> {
  const records =
    prefix === ""
      ? (await store.refs.listThreads({ limit: MAX_THREAD_CANDIDATES })).threads
      : await Promise.all(
          (await store.refs.findThreadIds(prefix, MAX_THREAD_CANDIDATES)).map((id) => store.refs.getThread(id)),
        );
  return records.flatMap((record) =>
    record === null
      ? []
      : [{ value: record.id, description: [record.workflow, record.status, record.next ?? ""].join(" ").trim() }],
  );
}

/** Registered names, then the project's `.uwf/workflows/*.yaml` (as `uwf workflow list` lists them). */
async function workflowCandidates(store: Store, home: string, prefix: string): Promise<Candidate[]> {
  const names = new Set((await store.refs.listWorkflows()).map((entry) => entry.name));
  let files: string[] = [];
  try {
    files = readdirSync(join(home, "workflows"));
  } catch {
    files = [];
  }
  for (const file of files) if (/\.ya?ml$/i.test(file)) names.add(file.replace(/\.ya?ml$/i, ""));
  return [...names].filter((name) => name.startsWith(prefix)).map((name) => ({ value: name, description: "workflow" }));
}
