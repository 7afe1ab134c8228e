import type { Store } from "@uwf/cas";
import type { ScenarioEntry, ScenarioThread } from "@uwf/protocol";
import { SUSPEND, type ThreadRecord } from "@uwf/protocol";
import { ScenarioNotExportableError } from "../errors/scenario-not-exportable-error.ts";
import { readChain, type ThreadChain } from "../history/read-chain.ts";
import { ThreadHistory } from "../history/thread-history.ts";
import { readAnsweredSuspension } from "../step/answered-suspension.ts";
import { findContinuation, lazyCompiledWorkflow } from "./find-continuation.ts";

/**
 * A thread's chain as a scenario: each step's accepted reply (its stored output and body; failed
 * attempts are not in the chain), on the step a suspension's answer resumed the thread with that answer
 * (and on the step that continued an ended thread, its prompt), and after the thread's own
 * steps each branch's steps under its key, read from the branches' own chains. Reads the thread's
 * chain, its branch links and its branches' chains; nothing else.
 *
 * Refused (ScenarioNotExportableError) where the scripted agent could not play the thread back: a step
 * uwf recorded for a suspension that timed out (no agent replied), or two branches of different
 * fan-outs with the same key (the scripted agent tells a branch's entries apart by key alone).
 */
export async function exportThreadScenario(
  store: Pick<Store, "objects" | "refs">,
  record: ThreadRecord,
): Promise<ScenarioThread> {
  const { chain, entries: steps } = await threadEntries(store, record, 0);
  const branches = new Map<string, string>();
  await collectBranchEntries(store, record, steps, branches);
  return {
    thread: record.id,
    workflow: { name: record.workflow, address: record.workflowAddress },
    prompt: chain.start.prompt,
    ...(chain.start.inputs === undefined ? {} : { inputs: chain.start.inputs }),
    steps,
  };
}

/** The entries of a thread's steps from `from` (0-based) on, each with the answer that led to it, and the chain read. */
async function threadEntries(
  store: Pick<Store, "objects" | "refs">,
  record: ThreadRecord,
  from: number,
): Promise<{ chain: ThreadChain; entries: ScenarioEntry[] }> {
  const chain = await readChain(store, record.head, { thread: record });
  const history = new ThreadHistory(store.objects, chain);
  const continuation = { record, chain, history, compiled: lazyCompiledWorkflow(store.objects, record) };
  const entries: ScenarioEntry[] = [];
  for (let index = from; index < history.length; index++) {
    const node = await history.node(index);
    if (node.timedOut !== undefined) {
      throw new ScenarioNotExportableError(
        record.id,
        `step ${index + 1} records a suspension that timed out unanswered (no agent replied, so the scripted agent has nothing to play)`,
      );
    }
    const output = await history.output(index);
    const entry: ScenarioEntry = { role: node.role, output, body: await history.body(index) };
    // What resumed the thread into this step: the answer to the suspension before it, or the prompt that continued it once ended.
    const answer =
      index === 0
        ? null
        : (await history.output(index - 1)).$status === SUSPEND
          ? await answerOf(history, index)
          : await findContinuation(continuation, index);
    if (answer !== null) entry.answer = answer;
    entries.push(entry);
  }
  return { chain, entries };
}

/** The answer the step at `index` was given for the suspension before it: typed fields, text, or null (not an answer). */
async function answerOf(history: ThreadHistory, index: number): Promise<string | Record<string, unknown> | null> {
  const typed = await history.answer(index);
  if (typed !== null) return typed;
  return readAnsweredSuspension((await history.node(index)).edgePrompt)?.answer ?? null;
}

/**
 * Appends the steps of every branch of `record` (and of their branches), oldest fan-out first and each
 * fan-out's in the order they were made, as `branch: KEY` entries. `seen` maps each key used so far to the thread it came from.
 */
async function collectBranchEntries(
  store: Pick<Store, "objects" | "refs">,
  record: ThreadRecord,
  entries: ScenarioEntry[],
  seen: Map<string, string>,
): Promise<void> {
  for (const link of await store.refs.listBranches(record.id)) {
    const branch = await store.refs.getThread(link.thread);
    if (branch === null) continue;
    const earlier = seen.get(link.key);
    if (earlier !== undefined) {
      throw new ScenarioNotExportableError(
        record.id,
        `branch key "${link.key}" is used by two fan-outs (threads ${earlier} and ${branch.id}), and a scenario tells branches apart by key alone`,
      );
    }
    seen.set(link.key, branch.id);
    // A `role:` branch's chain goes through its parent's steps; only the steps after them are its own.
    const shared = branch.branchOf?.role === null || branch.branchOf === undefined ? 0 : branch.branchOf.step;
    for (const { role, ...reply } of (await threadEntries(store, branch, shared)).entries) {
      entries.push({ role, branch: link.key, ...reply });
    }
    await collectBranchEntries(store, branch, entries, seen);
  }
}
