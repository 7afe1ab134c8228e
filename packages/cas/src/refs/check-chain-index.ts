import { parseAddress } from "../encoding/parse-address.ts";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { ChainIndex, ChainIndexStep } from "./chain-refs.ts";

/** A chain index with its addresses in canonical form and every role a non-empty string. */
export function checkChainIndex(index: ChainIndex): ChainIndex {
  if (typeof index !== "object" || index === null) {
    throw new InvalidRecordError("chain index", ["expected { start, steps: [{ address, role }] }"]);
  }
  return { start: parseAddress(index.start), steps: checkChainIndexSteps(index.steps) };
}

/** Steps to append to a chain index, checked as `checkChainIndex` checks an index's steps. */
export function checkChainIndexSteps(steps: readonly ChainIndexStep[]): ChainIndexStep[] {
  if (!Array.isArray(steps)) throw new InvalidRecordError("chain index", ["steps: expected a list"]);
  return steps.map((step, position) => {
    if (typeof step !== "object" || step === null || typeof step.role !== "string" || step.role === "") {
      throw new InvalidRecordError("chain index", [
        `steps.${position}: expected { address, role: a non-empty string }`,
      ]);
    }
    return { address: parseAddress(step.address), role: step.role };
  });
}
