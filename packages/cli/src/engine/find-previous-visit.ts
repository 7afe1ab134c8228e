import type { PreviousVisit } from "@uwf/agent-kit";
import type { ObjectStore } from "@uwf/cas";
import type { AgentRunNode, ThreadRecord, TranscriptNode } from "@uwf/protocol";
import type { HistoryStep } from "./load-history.ts";
import type { ThreadChain } from "./read-chain.ts";
import { storedNodeAs } from "./stored-node.ts";

/**
 * The number of the last step this thread shares with the thread it was forked from
 * (0 for a fork of the start node), or null for a thread that is not a fork.
 */
export function forkPoint(chain: ThreadChain, record: ThreadRecord): number | null {
  if (record.forkedFrom === null) return null;
  if (record.forkedFrom === chain.startAddress) return 0;
  return chain.steps.find((step) => step.address === record.forkedFrom)?.number ?? 0;
}

/** The role's last visit in this chain, with its session and transcript, so a conversational agent can continue it. */
export async function findPreviousVisit(
  objects: ObjectStore,
  history: HistoryStep[],
  roleName: string,
  sharedUpTo: number | null,
): Promise<PreviousVisit | undefined> {
  const previous = history.findLast((step) => step.role === roleName);
  if (previous === undefined) return undefined;
  const run = storedNodeAs<AgentRunNode>("agent-run/1", previous.run, await objects.get(previous.run));
  const transcript =
    run.transcript === null
      ? null
      : storedNodeAs<TranscriptNode>("transcript/1", run.transcript, await objects.get(run.transcript)).messages;
  return {
    sessionId: run.sessionId,
    transcript,
    shared: sharedUpTo !== null && previous.number <= sharedUpTo,
  };
}
