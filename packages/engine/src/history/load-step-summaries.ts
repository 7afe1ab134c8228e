import type { Store } from "@uwf/cas";
import type { Address, StepSummary } from "@uwf/protocol";
import type { HistoryStep } from "./history-step.ts";
import { readChain } from "./read-chain.ts";
import { ThreadHistory } from "./thread-history.ts";

/** Every step of the chain ending at `head`, oldest first, as `log` and `step` report them. */
export async function loadStepSummaries(store: Pick<Store, "objects" | "refs">, head: Address): Promise<StepSummary[]> {
  const history = new ThreadHistory(store.objects, await readChain(store, head));
  const summaries: StepSummary[] = [];
  // A summary has no body: not reading the bodies halves what a long thread's `log` (and its web page) reads.
  for (const [index, chainStep] of history.steps.entries()) {
    const node = await history.node(index);
    const run = await history.run(index);
    const summary = toStepSummary({
      number: index + 1,
      address: chainStep.address,
      role: node.role,
      agent: run.agent,
      output: await history.output(index),
      startedAt: node.startedAt,
      completedAt: node.completedAt,
      usage: run.usage,
    });
    summaries.push(run.attempts.length > 1 ? { ...summary, attempts: run.attempts.length } : summary);
  }
  return summaries;
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
