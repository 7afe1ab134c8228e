import type { Store } from "@uwf/cas";
import type { ThreadRecord, WorkflowNode } from "@uwf/protocol";
import { type CompiledWorkflow, compileWorkflow } from "@uwf/workflow";
import { readSuspension, suspensionAnswerSchema } from "../answers/read-suspension.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { ThreadRecordBehindError } from "../errors/thread-record-behind-error.ts";
import { ThreadSuspendedError } from "../errors/thread-suspended-error.ts";
import { readChain, type ThreadChain } from "../history/read-chain.ts";
import { storedNodeAs } from "../history/stored-node.ts";
import { ThreadHistory } from "../history/thread-history.ts";
import { checkSteppable, type ResumeRequest, type StepMode } from "./check-steppable.ts";

/** What a step knows about its thread once it holds the lease: read once, before anything is decided. */
export interface StepState {
  record: ThreadRecord;
  mode: StepMode;
  chain: ThreadChain;
  workflow: WorkflowNode;
  compiled: CompiledWorkflow;
  history: ThreadHistory;
}

export interface LoadStepStateOptions {
  /** Set for `resume`: what it brings, which decides whether the thread may step (checkSteppable). */
  resume?: ResumeRequest;
  trace?(phase: string): void;
}

/** The step's first phase: the thread's record, whether it may step, its chain, workflow and history. */
export async function loadStepState(
  store: Store,
  threadId: string,
  options: LoadStepStateOptions = {},
): Promise<StepState> {
  const record = await store.refs.getThread(threadId);
  if (record === null) throw new ThreadNotFoundError(threadId);
  const mode = await checkSteppableSaying(store, record, options.resume);
  const chain = await readChain(store, record.head, { thread: record });
  const past = chain.indexedPastHead ?? [];
  const newest = past.at(-1);
  if (newest !== undefined) {
    throw new ThreadRecordBehindError(
      record.id,
      record.head,
      record.stepCount,
      newest.address,
      record.stepCount + past.length,
    );
  }
  const workflow = storedNodeAs<WorkflowNode>(
    "workflow/1",
    record.workflowAddress,
    await store.objects.get(record.workflowAddress),
  );
  const history = new ThreadHistory(store.objects, chain);
  // The newest step is what the moderator starts from and what every prompt shows.
  if (history.length > 0) await history.step(history.length - 1);
  options.trace?.("chain read");
  return { record, mode, chain, workflow, compiled: compileWorkflow(workflow), history };
}

/** `checkSteppable`, whose refusal of a thread waiting for a person says which answer its role takes. */
async function checkSteppableSaying(
  store: Store,
  record: ThreadRecord,
  resume: ResumeRequest | undefined,
): Promise<StepMode> {
  try {
    return checkSteppable(record, resume);
  } catch (error) {
    if (!(error instanceof ThreadSuspendedError) || error.data.limit !== null) throw error;
    const suspension = await readSuspension(store, record);
    if (suspension === null) throw error;
    throw new ThreadSuspendedError(record, suspensionAnswerSchema(suspension) === null ? "text" : "fields");
  }
}
