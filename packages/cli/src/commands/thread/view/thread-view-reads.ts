import type { Store } from "@uwf/cas";
import { buildFamilyTree, loadThreadLog, readAgentOutput, resolveThread } from "@uwf/engine";
import type { AgentOutputResult, LogResult, TreeResult } from "@uwf/protocol";
import { UsageError } from "../../../errors/usage-error.ts";

// The thread reads `uwf log` and `tree`, the web UI's API and `uwf mcp` share: each checks what it is asked
// as the CLI checks its flags (a usage error), resolves the thread and calls the engine's view.

/** A thread's steps (id or unique prefix), as `uwf log --json` gives them. */
export async function readThreadLog(store: Store, thread: string): Promise<LogResult> {
  return loadThreadLog(store, await resolveThread(store.refs, thread));
}

/** Refuses a `--step` that is no step number (the API passes its query's `step` as it is; the CLI's parser refused the rest). */
export function checkAgentOutputStep(step: number | undefined): void {
  if (step !== undefined && !(Number.isSafeInteger(step) && step > 0)) {
    throw new UsageError(`--step ${step}: expected a step number, 1 or more`);
  }
}

/** What a thread's agents printed as they ran, or only step `step`'s (checked by checkAgentOutputStep). */
export async function readThreadAgentOutput(
  store: Store,
  thread: string,
  step: number | undefined,
): Promise<AgentOutputResult> {
  checkAgentOutputStep(step);
  return readAgentOutput(store, await resolveThread(store.refs, thread), step);
}

/** A thread's whole family from its root original (`uwf tree --json`), without the re-runs of explorations unless asked. */
export async function readThreadTree(
  store: Store,
  options: { thread: string; explorations?: boolean },
): Promise<TreeResult> {
  const thread = await resolveThread(store.refs, options.thread);
  return buildFamilyTree(store, thread, { explorations: options.explorations === true });
}
