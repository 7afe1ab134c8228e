import type { ObjectStore } from "@uwf/cas";
import type { HistoryStep } from "./history-step.ts";
import type { ThreadChain } from "./read-chain.ts";
import { ThreadHistory } from "./thread-history.ts";

/** Every step of the chain, whole: each one's output, body and agent run (for `read` and `log`, which show them all). */
export async function loadHistory(objects: ObjectStore, chain: ThreadChain): Promise<HistoryStep[]> {
  return new ThreadHistory(objects, chain).stepsFrom(0);
}
