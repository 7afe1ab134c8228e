import type { Store } from "@uwf/cas";
import type { Address, StepSummary } from "@uwf/protocol";
import { type HistoryStep, loadHistory } from "./load-history.ts";
import { readChain } from "./read-chain.ts";

/** Every step of the chain ending at `head`, oldest first, as `log` and `step` report them. */
export async function loadStepSummaries(store: Pick<Store, "objects" | "refs">, head: Address): Promise<StepSummary[]> {
  const chain = await readChain(store, head);
  return (await loadHistory(store.objects, chain)).map(toStepSummary);
}

/** A step as `log` reports it, from what a history step (or a reader of the same nodes) knows of it. */
export function toStepSummary(
  step: Pick<HistoryStep, "number" | "address" | "role" | "agent" | "output" | "startedAt" | "completedAt" | "usage">,
): StepSummary {
  const status = step.output.$status;
  return {
    number: step.number,
    address: step.address,
    role: step.role,
    agent: step.agent,
    status: typeof status === "string" ? status : null,
    output: step.output,
    startedAt: step.startedAt,
    completedAt: step.completedAt,
    durationMs: Date.parse(step.completedAt) - Date.parse(step.startedAt),
    usage: step.usage,
  };
}
