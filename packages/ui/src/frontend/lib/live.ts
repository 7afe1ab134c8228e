import type { LiveEvent } from "@uwf/protocol";
import { useEffect, useRef } from "preact/hooks";

/**
 * Calls `onEvent` with each change any process makes to the store (the server's Server-Sent Events,
 * `/api/events`, the `--jsonl` shapes plus `thread-updated`); `thread` limits them to one thread.
 * EventSource reconnects by itself and sends Last-Event-ID, so nothing is missed across a reconnect. When
 * the server cannot replay what was missed (it restarted, or more than its buffer happened), it sends a
 * `reset` event: the page is reloaded, so what it shows is read afresh rather than left stale.
 */
export function useLiveEvents(
  onEvent: (event: LiveEvent) => void,
  thread?: string,
  /** `output`: also what running steps print (`step-output`), which other pages do without. */
  options: { output?: boolean } = {},
): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const query = new URLSearchParams();
    if (thread !== undefined) query.set("thread", thread);
    if (options.output === true) query.set("output", "1");
    const text = query.toString();
    const source = new EventSource(text === "" ? "/api/events" : `/api/events?${text}`);
    source.onmessage = (message) => handler.current(JSON.parse(message.data) as LiveEvent);
    source.addEventListener("reset", () => window.location.reload());
    return () => source.close();
  }, [thread, options.output]);
}
