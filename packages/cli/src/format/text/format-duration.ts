/** 850ms, 12.3s, 4m05s, 2h03m: short and unambiguous. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.max(0, Math.round(milliseconds))}ms`;
  const seconds = milliseconds / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(Math.floor(seconds % 60)).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

/** A timestamp as `2026-11-21 14:03:07` (UTC), the same on every machine. */
export function formatTimestamp(iso: string): string {
  return iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "");
}
