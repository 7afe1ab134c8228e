import type { Prices } from "@uwf/protocol";

/**
 * List prices in US dollars per million tokens, used when `models.NAME.prices`
 * is not set in config.yaml. `cacheWrite` is the 5-minute cache write. A model
 * id matches an entry when it equals the entry's key or starts with it followed
 * by `-` (so dated ids such as `claude-haiku-4-5-20251001` match too). Prices
 * change: set `prices` in config.yaml to override.
 */
export const DEFAULT_PRICES: Readonly<Record<string, Prices>> = {
  "claude-fable-5-2": { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 },
  "claude-fable-5-1": { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 },
  "claude-mythos-5-2": { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 },
  "claude-mythos-5-1": { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 },
  "claude-fable-5": { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
  "claude-mythos-5": { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 },
  "claude-opus-5-5": { input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 },
  "claude-opus-5": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  "claude-opus-4-8": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  "claude-opus-4-7": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  "claude-opus-4-6": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  "claude-opus-4-5": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  "claude-sonnet-5-5": { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
  "claude-sonnet-5": { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
  "claude-sonnet-4-6": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-sonnet-4-5": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-haiku-5-5": { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 },
  "claude-haiku-4-5": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
};

/** The built-in prices of a model id, or null for a model the table does not know (its cost counts as 0). */
export function findDefaultPrices(model: string): Prices | null {
  const exact = DEFAULT_PRICES[model];
  if (exact !== undefined) return exact;
  // The longest key that is a prefix wins: `claude-opus-5-5-...` before `claude-opus-5-...`.
  let best: string | null = null;
  for (const key of Object.keys(DEFAULT_PRICES)) {
    if (model.startsWith(`${key}-`) && (best === null || key.length > best.length)) best = key;
  }
  return best === null ? null : (DEFAULT_PRICES[best] ?? null);
}
