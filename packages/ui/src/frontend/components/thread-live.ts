import { useEffect, useRef } from "preact/hooks";

/**
 * A function that calls `callback` once `delayMs` after the last of a burst of calls (live events
 * arrive in bursts: one refetch per burst, not one per event).
 */
export function useDebounced(callback: () => void, delayMs: number): () => void {
  const latest = useRef(callback);
  latest.current = callback;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  const debounced = useRef(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      latest.current();
    }, delayMs);
  });
  return debounced.current;
}
