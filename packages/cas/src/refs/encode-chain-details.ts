import type { ChainIndexStep } from "./chain-refs.ts";

/**
 * The details of the steps that have them, as a chain index row keeps them: one JSON array of
 * `[address, output, body, agent, startedAt, completedAt, status, usage]`, each entry naming its step,
 * so entries appended after an index without them still find their steps. Null when no step has any.
 */
export function encodeChainDetails(steps: readonly ChainIndexStep[]): string | null {
  const entries: unknown[] = [];
  for (const { address, details } of steps) {
    if (details === undefined) continue;
    const { output, body, agent, startedAt, completedAt, status, usage } = details;
    entries.push([address, output, body, agent, startedAt, completedAt, status, usage]);
  }
  return entries.length === 0 ? null : JSON.stringify(entries);
}
