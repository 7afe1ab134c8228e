/** Small formatters of the Graph, Family, Diff and Experiments pages (kept here so those pages need nothing else). */

/** A thread id shortened for display: its last 8 characters (the random part of a ULID, which tells threads apart). */
export function shortThread(id: string): string {
  return id.length > 10 ? `…${id.slice(-8)}` : id;
}

/** Milliseconds as `840 ms`, `12.3 s`, `4 min 05 s`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(Math.round(seconds - minutes * 60)).padStart(2, "0")} s`;
}

/** US dollars: `$0`, `$0.0042`, `$1.23`. */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return "—";
  if (usd === 0) return "$0";
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** A count of tokens: `980`, `12.4k`, `1.2M`. */
export function formatTokens(tokens: number | null | undefined): string {
  if (tokens === null || tokens === undefined) return "—";
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** A rate in [0, 1] as a percentage: `87.5%`. */
export function formatPercent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return "—";
  return `${Math.round(rate * 1000) / 10}%`;
}

/** A date as the reader's local date and time, to the minute. */
export function formatWhen(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** Any JSON value as a short line of text (strings bare, the rest as JSON). */
export function formatValue(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** Input plus output tokens of a usage, null without one. */
export function usageTokens(usage: { inputTokens: number; outputTokens: number } | null | undefined): number | null {
  return usage === null || usage === undefined ? null : usage.inputTokens + usage.outputTokens;
}
