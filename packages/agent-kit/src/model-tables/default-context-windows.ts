/** The window assumed for a model neither config.yaml nor the table knows: the smallest current Claude window. */
export const FALLBACK_CONTEXT_WINDOW = 200_000;

const ONE_MILLION = 1_000_000;

/**
 * Context windows in tokens, from Anthropic's model pages; set
 * `models.NAME.contextWindow` in config.yaml for a model not listed here (a
 * gateway's own, or a window your account differs in). Matched like the price
 * table: the id itself, or the id followed by `-` (dated ids).
 */
export const DEFAULT_CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  "claude-fable-5-2": ONE_MILLION,
  "claude-fable-5-1": ONE_MILLION,
  "claude-fable-5": ONE_MILLION,
  "claude-mythos-5-2": ONE_MILLION,
  "claude-mythos-5-1": ONE_MILLION,
  "claude-mythos-5": ONE_MILLION,
  "claude-opus-5-5": ONE_MILLION,
  "claude-opus-5": ONE_MILLION,
  "claude-opus-4-8": ONE_MILLION,
  "claude-opus-4-7": ONE_MILLION,
  "claude-opus-4-6": ONE_MILLION,
  "claude-opus-4-5": 200_000,
  "claude-sonnet-5-5": ONE_MILLION,
  "claude-sonnet-5": ONE_MILLION,
  "claude-sonnet-4-6": ONE_MILLION,
  "claude-sonnet-4-5": 200_000,
  "claude-haiku-5-5": ONE_MILLION,
  "claude-haiku-4-5": 200_000,
};

/** The model's context window from the table, else {@link FALLBACK_CONTEXT_WINDOW}. */
export function findDefaultContextWindow(model: string): number {
  const exact = DEFAULT_CONTEXT_WINDOWS[model];
  if (exact !== undefined) return exact;
  let best: string | null = null;
  for (const key of Object.keys(DEFAULT_CONTEXT_WINDOWS)) {
    if (model.startsWith(`${key}-`) && (best === null || key.length > best.length)) best = key;
  }
  return best === null ? FALLBACK_CONTEXT_WINDOW : (DEFAULT_CONTEXT_WINDOWS[best] ?? FALLBACK_CONTEXT_WINDOW);
}
