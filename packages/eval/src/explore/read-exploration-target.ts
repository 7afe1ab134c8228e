import type { Store } from "@uwf/cas";
import { readChain, resolveThread } from "@uwf/engine";
import type { Address, ThreadRecord } from "@uwf/protocol";
import { NothingToEvaluateError } from "../errors/nothing-to-evaluate-error.ts";

/** A step of the thread to explore: its number, its role, and the node its re-runs are forked at. */
export interface ExplorationPoint {
  step: number;
  role: string;
  /** The node before the step: the previous step's, or the thread's start node for step 1. */
  from: Address;
}

/** The thread an exploration resamples, as it stands, and every step of it. */
export interface ExplorationTarget {
  record: ThreadRecord;
  points: ExplorationPoint[];
}

/**
 * The thread (by id or unique prefix) and its steps, oldest first, each with the node its re-runs fork
 * at. Reads only the thread's chain. Throws NothingToEvaluateError for a thread with no step yet.
 */
export async function readExplorationTarget(store: Store, reference: string): Promise<ExplorationTarget> {
  const record = await resolveThread(store.refs, reference);
  const chain = await readChain(store, record.head, { thread: record });
  if (chain.steps.length === 0) {
    throw new NothingToEvaluateError(`nothing to explore: thread ${record.id} has no step yet`);
  }
  const points = chain.steps.map(
    (step, index): ExplorationPoint => ({
      step: index + 1,
      role: step.role,
      from: index === 0 ? chain.startAddress : (chain.steps[index - 1] as { address: Address }).address,
    }),
  );
  return { record, points };
}
