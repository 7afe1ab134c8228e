import type { Prices, Usage } from "@uwf/protocol";

/** The `usage` object of a Messages API response (only the fields uwf counts). */
export interface ApiUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/**
 * Tokens and cost of one model response. Cache reads and writes are priced at
 * `cacheRead` / `cacheWrite`, defaulting to 0.1× and 1.25× the input price;
 * without prices the cost is 0.
 */
export function computeUsage(usage: ApiUsage | null | undefined, prices: Prices | null): Usage {
  const inputTokens = count(usage?.input_tokens);
  const outputTokens = count(usage?.output_tokens);
  const cacheReadTokens = count(usage?.cache_read_input_tokens);
  const cacheWriteTokens = count(usage?.cache_creation_input_tokens);
  if (prices === null) return { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, costUsd: 0 };
  const cost =
    inputTokens * prices.input +
    outputTokens * prices.output +
    cacheReadTokens * (prices.cacheRead ?? prices.input * 0.1) +
    cacheWriteTokens * (prices.cacheWrite ?? prices.input * 1.25);
  return {
    inputTokens,
    outputTokens,
    cacheReadTokens,
    cacheWriteTokens,
    costUsd: roundMicro(cost / 1e6),
  };
}

function roundMicro(dollars: number): number {
  return Math.round(dollars * 1e6) / 1e6;
}

function count(value: number | null | undefined): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
