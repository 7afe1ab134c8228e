import type { ObjectStore } from "@uwf/cas";
import type { Usage } from "@uwf/protocol";
import type { ThreadChain } from "./read-chain.ts";
import { ThreadHistory } from "./thread-history.ts";

/** A step as the moderator, the prompt builder and `read` see it. */
export interface HistoryStep {
  number: number;
  address: string;
  role: string;
  agent: string;
  output: Record<string, unknown>;
  body: string;
  edgePrompt: string;
  startedAt: string;
  completedAt: string;
  run: string;
  usage: Usage | null;
  /** On the step that answered a typed suspension: the person's answer (its `answer/1` node). */
  answer?: Record<string, unknown>;
}

/** Every step of the chain, whole: each one's output, body and agent run (for `read` and `log`, which show them all). */
export async function loadHistory(objects: ObjectStore, chain: ThreadChain): Promise<HistoryStep[]> {
  return new ThreadHistory(objects, chain).stepsFrom(0);
}
