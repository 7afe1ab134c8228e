/**
 * How eval reports write numbers, the same in every renderer and every gate detail:
 * - rates, scores and pass@k as fractions with two decimals (`0.80`, never `80%`), as `--min-pass-rate 0.8`
 *   takes them; an interval as `[0.49, 0.94]`;
 * - cost in US dollars: `$0`, `$0.0123` under a dollar, `$1.23` from one, `$123` from a hundred;
 * - durations as the CLI writes them: `850ms`, `12.3s`, `4m05s`, `2h03m`;
 * - counts (steps, tokens) whole, tokens from ten thousand in thousands (`12.3k`) or millions (`1.2M`);
 *   a mean of counts with one decimal;
 * - a missing value (no samples) as `–`.
 */
export const MISSING = "–";

/** A rate or score in [0, 1]: `0.80`. */
export function formatRate(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? MISSING : rate.toFixed(2);
}

/** A Wilson interval: `[0.49, 0.94]`. */
export function formatInterval(interval: { low: number; high: number } | null | undefined): string {
  return interval === null || interval === undefined
    ? MISSING
    : `[${formatRate(interval.low)}, ${formatRate(interval.high)}]`;
}

/** A rate with its interval: `0.80 [0.49, 0.94]`. */
export function formatRateWithInterval(
  rate: number | null | undefined,
  interval: { low: number; high: number } | null | undefined,
): string {
  return rate === null || rate === undefined ? MISSING : `${formatRate(rate)} ${formatInterval(interval)}`;
}

/** US dollars: `$0`, `$0.0123`, `$1.23`, `$123`. */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return MISSING;
  const size = Math.abs(usd);
  const sign = usd < 0 ? "-" : "";
  if (size === 0) return "$0";
  if (size < 1) return `${sign}$${size.toFixed(4)}`;
  if (size < 100) return `${sign}$${size.toFixed(2)}`;
  return `${sign}$${size.toFixed(0)}`;
}

/** 850ms, 12.3s, 4m05s, 2h03m (as the CLI writes durations). */
export function formatDuration(milliseconds: number | null | undefined): string {
  if (milliseconds === null || milliseconds === undefined) return MISSING;
  const sign = milliseconds < 0 ? "-" : "";
  const size = Math.abs(milliseconds);
  if (size < 1000) return `${sign}${Math.round(size)}ms`;
  const seconds = size / 1000;
  if (seconds < 60) return `${sign}${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${sign}${minutes}m${String(Math.floor(seconds % 60)).padStart(2, "0")}s`;
  return `${sign}${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

/** A count (steps, tokens): whole below ten thousand, else `12.3k`, `1.2M`; a fraction (a mean) with one decimal. */
export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined) return MISSING;
  const size = Math.abs(value);
  const sign = value < 0 ? "-" : "";
  if (size >= 1_000_000) return `${sign}${(size / 1_000_000).toFixed(1)}M`;
  if (size >= 10_000) return `${sign}${(size / 1000).toFixed(1)}k`;
  return Number.isInteger(size) ? `${sign}${size}` : `${sign}${size.toFixed(1)}`;
}

/** A field's number as it is, up to four significant decimals: `3`, `0.125`, `12.3457`. */
export function formatValue(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(4)));
}

/** A difference with its sign, written by `format`: `+0.10`, `-$0.0020`, `+1.2s`, `0.00` when none. */
export function formatDelta(delta: number | null | undefined, format: (value: number) => string): string {
  if (delta === null || delta === undefined) return MISSING;
  if (delta === 0) return format(0);
  return delta > 0 ? `+${format(delta)}` : `-${format(-delta)}`;
}
