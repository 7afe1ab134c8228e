import type { Address } from "@uwf/protocol";
import type { ChainIndex, ChainIndexStep, ChainStepDetails } from "./chain-refs.ts";
import { canonicalUsage } from "./check-chain-index.ts";

/**
 * The stored row as a chain index; null when it is not one (a damaged row is a miss, not an error).
 * Given the index's details (see `encodeChainDetails`: a JSON array of the entries), each step they name
 * well gets its details; a damaged entry, or damaged details as a whole, leave their steps without, as if
 * never kept.
 */
export function decodeChainIndex(start: string, stepsJson: string, detailsJson?: string | null): ChainIndex | null {
  let pairs: unknown;
  try {
    pairs = JSON.parse(stepsJson);
  } catch {
    return null;
  }
  if (!Array.isArray(pairs)) return null;
  const details = detailsJson == null ? null : decodeChainDetails(detailsJson);
  // An indexed loop: a step runs this once, cold, where for-of's iterator costs measurably more.
  const steps = new Array<ChainIndexStep>(pairs.length);
  for (let position = 0; position < pairs.length; position++) {
    const pair: unknown = pairs[position];
    if (!Array.isArray(pair) || typeof pair[0] !== "string" || typeof pair[1] !== "string") return null;
    const step: ChainIndexStep = { address: pair[0] as Address, role: pair[1] };
    const stepDetails = details?.get(step.address);
    if (stepDetails !== undefined) step.details = stepDetails;
    steps[position] = step;
  }
  return { start: start as Address, steps };
}

const ADDRESS = /^[0-9A-HJKMNP-TV-Z]{13}$/;

/** The well-formed entries of a row's details, by step address; empty when the text is not a list. */
function decodeChainDetails(detailsJson: string): Map<string, ChainStepDetails> {
  const byAddress = new Map<string, ChainStepDetails>();
  let entries: unknown;
  try {
    entries = JSON.parse(detailsJson);
  } catch {
    return byAddress;
  }
  if (!Array.isArray(entries)) return byAddress;
  for (const entry of entries) {
    if (!Array.isArray(entry) || entry.length !== 8) continue;
    const [address, output, body, agent, startedAt, completedAt, status, usage] = entry as unknown[];
    if (typeof address !== "string" || typeof output !== "string" || typeof body !== "string") continue;
    if (!ADDRESS.test(output) || !ADDRESS.test(body)) continue;
    if (typeof agent !== "string" || typeof startedAt !== "string" || typeof completedAt !== "string") continue;
    if (status !== null && typeof status !== "string") continue;
    const checkedUsage = usage === null ? null : canonicalUsage(usage);
    if (checkedUsage === undefined) continue;
    byAddress.set(address, {
      output: output as Address,
      body: body as Address,
      agent,
      startedAt,
      completedAt,
      status,
      usage: checkedUsage,
    });
  }
  return byAddress;
}
