/** When a suspension that began at `suspendedAt` runs out under a role's `suspendTimeout` (parsed, in ms); null without one. */
export function suspensionDeadline(suspendedAt: string, timeoutMs: number | null): string | null {
  if (timeoutMs === null) return null;
  return new Date(Date.parse(suspendedAt) + timeoutMs).toISOString();
}
