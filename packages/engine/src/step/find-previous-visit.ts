import type { PreviousVisit } from "@uwf/agent-kit";
import type { ObjectStore } from "@uwf/cas";
import type { ThreadRecord, TranscriptNode } from "@uwf/protocol";
import type { ThreadChain } from "../history/read-chain.ts";
import { storedNodeAs } from "../history/stored-node.ts";
import type { ThreadHistory } from "../history/thread-history.ts";
import { isTimeoutRun } from "../history/timeout-run.ts";

/**
 * The number of the last step this thread shares with the thread it was forked from
 * (0 for a fork of the start node), or null for a thread that is not a fork. A counterfactual
 * fork shares the steps before the one whose reply it replaced.
 */
export function forkPoint(chain: ThreadChain, record: ThreadRecord): number | null {
  const origin = record.forkedFrom;
  if (origin === null) return null;
  if (origin.step !== null && origin.replaced !== null) return origin.replaced ? origin.step - 1 : origin.step;
  // A fork an older uwf recorded by its address only.
  if (origin.address === chain.startAddress) return 0;
  return chain.steps.findIndex((step) => step.address === origin.address) + 1;
}

/**
 * The role's last visit in this chain, with its session and transcript, so a conversational agent
 * can continue it. Reads that step's agent run (the prompt has usually read it already) and transcript.
 */
export async function findPreviousVisit(
  objects: ObjectStore,
  history: ThreadHistory,
  roleName: string,
  sharedUpTo: number | null,
): Promise<PreviousVisit | undefined> {
  // A timeout step (a suspension that waited too long) ran no agent: the visit to continue is the one before it.
  let index = history.steps.findLastIndex((step) => step.role === roleName);
  let run = index === -1 ? undefined : await history.run(index);
  while (run !== undefined && isTimeoutRun(run)) {
    index = history.steps.findLastIndex((step, at) => at < index && step.role === roleName);
    run = index === -1 ? undefined : await history.run(index);
  }
  if (run === undefined) return undefined;
  const transcript =
    run.transcript === null
      ? null
      : storedNodeAs<TranscriptNode>("transcript/1", run.transcript, await objects.get(run.transcript)).messages;
  return {
    sessionId: run.sessionId,
    transcript,
    shared: sharedUpTo !== null && index + 1 <= sharedUpTo,
    sessionUsage: run.attempts.at(-1)?.sessionUsage ?? null,
  };
}
