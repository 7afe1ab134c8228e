import type { Usage } from "@uwf/protocol";

/** The formatters every page shares. */

/** `850 ms`, `12.3 s`, `4 min 05 s`, `2 h 10 min`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(Math.round(seconds % 60)).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** `1,234` tokens; a dash for none. */
export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return value.toLocaleString("en-US");
}

/** Input plus output tokens of a usage, or a dash when there is none. */
export function formatTokens(usage: Usage | null | undefined): string {
  if (usage === null || usage === undefined) return "–";
  return formatCount(usage.inputTokens + usage.outputTokens);
}

/** `$0.0123`; a dash for none. */
export function formatCost(costUsd: number | null | undefined): string {
  if (costUsd === null || costUsd === undefined) return "–";
  if (costUsd === 0) return "$0";
  return `$${costUsd < 0.01 ? costUsd.toFixed(4) : costUsd.toFixed(2)}`;
}

/** A timestamp as local date and time, `2026-11-27 07:30:14`: the one format every page shows dates in. */
export function formatTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return "–";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** `3 min ago`, relative to `now`. */
export function formatAgo(iso: string, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

/** A value of a reply's field as one line of text (strings as they are, the rest as JSON). */
export function formatValue(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** A thread id shortened for display: its last 8 characters (the random part of a ULID, which tells threads apart). */
export function shortThread(id: string): string {
  return id.length > 10 ? `…${id.slice(-8)}` : id;
}

/** A count of tokens, compact: `980`, `12.4k`, `1.2M`; a dash for none. */
export function formatCompactTokens(tokens: number | null | undefined): string {
  if (tokens === null || tokens === undefined) return "–";
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/** A rate in [0, 1] as a percentage: `87.5%`. */
export function formatPercent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return "–";
  return `${Math.round(rate * 1000) / 10}%`;
}

/** Input plus output tokens of a usage, null without one. */
export function usageTokens(usage: { inputTokens: number; outputTokens: number } | null | undefined): number | null {
  return usage === null || usage === undefined ? null : usage.inputTokens + usage.outputTokens;
}

/** An argument as a POSIX shell reads it back: bare when safe, else in single quotes, or `$'…'` when it holds control characters (newlines). */
export function quoteShellArgument(argument: string): string {
  if (argument !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(argument)) return argument;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  if (!/[\u0000-\u001f\u007f]/.test(argument)) return `'${argument.replaceAll("'", "'\\''")}'`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point
  const escaped = argument.replace(/[\\'\u0000-\u001f\u007f]/g, (character) => {
    const named: Record<string, string> = { "\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r" };
    return named[character] ?? `\\x${character.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
  return `$'${escaped}'`;
}

/** An agent's argv (or a command already given as text) as one command line a shell would run as it ran. */
export function formatCommandLine(command: readonly string[] | string): string {
  return typeof command === "string" ? command : command.map(quoteShellArgument).join(" ");
}
