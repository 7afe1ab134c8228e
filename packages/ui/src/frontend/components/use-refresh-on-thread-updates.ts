import { useLiveEvents } from "../lib/live.ts";
import { useDebounced } from "./thread-live.ts";

/**
 * Calls `reload` once after each burst of thread changes any process makes (a `thread-updated` live
 * event; 250 ms after the burst's last), and returns that debounced call for the page's own changes too.
 */
export function useRefreshOnThreadUpdates(reload: () => void): () => void {
  const refresh = useDebounced(reload, 250);
  useLiveEvents((event) => {
    if (event.type === "thread-updated") refresh();
  });
  return refresh;
}
