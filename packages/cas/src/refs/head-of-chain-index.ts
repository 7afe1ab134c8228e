import type { Address } from "@uwf/protocol";
import type { ChainIndex } from "./chain-refs.ts";

/** Where a chain index ends: its last step, or its start node when it has none. */
export function headOfChainIndex(index: ChainIndex): Address {
  return index.steps.at(-1)?.address ?? index.start;
}
