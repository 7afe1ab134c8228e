import { waitFor } from "@uwf/cas/test";

/** Waits until `condition` holds, looking every 25 ms, for up to 30 s; then fails naming `what`. */
export function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  return waitFor(condition, { what, timeoutMs: 30_000, intervalMs: 25 });
}
