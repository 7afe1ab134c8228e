import type { ChainIndexStep } from "./chain-refs.ts";

/**
 * The details of the steps that have them, as a chain index keeps them: one JSON array a step,
 * `[address, output, body, agent, startedAt, completedAt, status, usage]`, naming its step, so the
 * entries of steps appended after an index without them still find their steps.
 */
export function encodeChainDetails(steps: readonly ChainIndexStep[]): { address: string; entry: string }[] {
  const entries: { address: string; entry: string }[] = [];
  for (const { address, details } of steps) {
    if (details === undefined) continue;
    const { output, body, agent, startedAt, completedAt, status, usage } = details;
    entries.push({
      address,
      entry: JSON.stringify([address, output, body, agent, startedAt, completedAt, status, usage]),
    });
  }
  return entries;
}
