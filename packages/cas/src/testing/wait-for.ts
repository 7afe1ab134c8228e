export interface WaitForOptions {
  /** Give up after this long; generous, since a loaded machine is slow but not stuck. */
  timeoutMs?: number;
  /** Named in the error when the condition never holds. */
  what?: string;
  intervalMs?: number;
}

/** Polls `condition` until it holds, instead of sleeping a fixed time and hoping; throws at the deadline. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 10_000, what = "the condition", intervalMs = 20 }: WaitForOptions = {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await Bun.sleep(intervalMs);
  }
}
