const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** One or more amounts with units, largest first or not: `90s`, `15m`, `24h`, `1h30m`, `2d`, `500ms`. */
export const DURATION_PATTERN = /^(?:\d+(?:ms|s|m|h|d))+$/;

/** A written duration in milliseconds; null for text that is not one (or that is zero). */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (!DURATION_PATTERN.test(trimmed)) return null;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)(ms|s|m|h|d)/g)) {
    total += Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  }
  return total > 0 && Number.isSafeInteger(total) ? total : null;
}
