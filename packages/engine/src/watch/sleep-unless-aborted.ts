/** Waits `milliseconds`, or less when `signal` aborts first: true when the whole wait passed. */
export function sleepUnlessAborted(milliseconds: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const aborted = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", aborted);
      resolve(true);
    }, milliseconds);
    signal.addEventListener("abort", aborted, { once: true });
  });
}
