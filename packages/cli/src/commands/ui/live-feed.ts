import type { Store } from "@uwf/cas";
import { type StoreWatch, watchStore } from "@uwf/engine";
import type { LiveEvent } from "@uwf/protocol";
import type { UiBackend } from "@uwf/ui";

/** The store's change feed for `uwf ui`'s pages, shared by every listener, and how to end it with the server. */
export interface LiveFeed {
  watch: UiBackend["watch"];
  /** Stops the feed for good; resolves once no event will follow. */
  close(): Promise<void>;
  /**
   * Resolves once the feed has started or stopped as its listeners ask (watching from that moment on
   * when one listens, watching nothing when none does).
   */
  settled(): Promise<void>;
}

export interface LiveFeedOptions {
  /** How often the embedded store checks for another process's commits; default the store's (100 ms). */
  pollMs?: number;
  /** A check of the store that failed (it went out of reach); the feed goes on with the next change. */
  onError?(error: unknown): void;
}

/**
 * One watch of the store (the engine's watchStore) for all listeners: started when the first listener
 * comes, each event handed to every listener, stopped when the last one leaves, so an open `uwf ui`
 * nobody watches checks nothing. A listener that throws is dropped, never the feed.
 */
export function createLiveFeed(store: Store, options: LiveFeedOptions = {}): LiveFeed {
  const listeners = new Set<(event: LiveEvent) => void>();
  let closed = false;
  // Starts and stops in the order asked, so a listener that comes while the feed stops gets a new one.
  let running: StoreWatch | null = null;
  let queue: Promise<void> = Promise.resolve();
  const broadcast = (event: LiveEvent) => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        listeners.delete(listener);
        options.onError?.(error);
      }
    }
  };
  const settle = () => {
    queue = queue.then(async () => {
      const wanted = listeners.size > 0 && !closed;
      if (wanted && running === null) {
        try {
          running = await watchStore({
            store,
            onEvent: broadcast,
            ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
            ...(options.onError === undefined ? {} : { onError: options.onError }),
          });
        } catch (error) {
          options.onError?.(error);
        }
      } else if (!wanted && running !== null) {
        const stopping = running;
        running = null;
        await stopping.stop();
      }
    });
    return queue;
  };
  return {
    watch(listener) {
      if (closed) return () => {};
      listeners.add(listener);
      void settle();
      return () => {
        if (listeners.delete(listener)) void settle();
      };
    },
    async close() {
      closed = true;
      listeners.clear();
      await settle();
    },
    settled() {
      return queue;
    },
  };
}
