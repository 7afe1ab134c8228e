import type { Address } from "@uwf/protocol";
import type { ChainIndex, ChainIndexStep } from "./chain-refs.ts";

/** The stored row as a chain index; null when it is not one (a damaged row is a miss, not an error). */
export function decodeChainIndex(start: string, stepsJson: string): ChainIndex | null {
  let pairs: unknown;
  try {
    pairs = JSON.parse(stepsJson);
  } catch {
    return null;
  }
  if (!Array.isArray(pairs)) return null;
  // An indexed loop: a step runs this once, cold, where for-of's iterator costs measurably more.
  const steps = new Array<ChainIndexStep>(pairs.length);
  for (let position = 0; position < pairs.length; position++) {
    const pair: unknown = pairs[position];
    if (!Array.isArray(pair) || typeof pair[0] !== "string" || typeof pair[1] !== "string") return null;
    steps[position] = { address: pair[0] as Address, role: pair[1] };
  }
  return { start: start as Address, steps };
}
