import type { RefStore } from "./ref-store.ts";

/** The ref store's methods that write: after each, a store signals its own watchers (see `watchChanges`). */
const WRITE_METHODS: ReadonlySet<string> = new Set([
  "createThread",
  "createThreads",
  "createBranches",
  "updateThread",
  "deleteThread",
  "rememberDeletedThreads",
  "setWorkflow",
  "fireSchedule",
  "saveEvalReport",
  "deleteEvalReport",
  "acquireLease",
  "claimThread",
  "renewLease",
  "recordLeaseAgent",
  "recordLeaseHead",
  "releaseLease",
  "requestCancel",
  "appendStepOutput",
] satisfies (keyof RefStore)[]);

/**
 * The watchers of one store's own writes: `signalWrites` wraps its write methods so that each, once
 * it has settled, calls every watcher (once for the writes settled in the same tick).
 */
export interface ChangeSignal {
  /** Adds a watcher; the returned function removes it. */
  add(onChange: () => void): () => void;
  /** Calls every watcher soon (in a microtask), once however often it was called meanwhile. */
  notify(): void;
  /** The same methods, each write calling `notify` after it settled (failed writes too: they may have written). */
  signalWrites<Methods extends object>(methods: Methods): Methods;
}

export function createChangeSignal(): ChangeSignal {
  const watchers = new Set<() => void>();
  let pending = false;
  const notify = () => {
    if (pending || watchers.size === 0) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      for (const watcher of [...watchers]) watcher();
    });
  };
  return {
    add(onChange) {
      const watcher = () => onChange();
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    notify,
    signalWrites<Methods extends object>(methods: Methods): Methods {
      const wrapped: Record<string, unknown> = { ...(methods as Record<string, unknown>) };
      for (const [name, method] of Object.entries(methods as Record<string, unknown>)) {
        if (typeof method !== "function" || !WRITE_METHODS.has(name)) continue;
        wrapped[name] = async (...args: unknown[]) => {
          try {
            return await method(...args);
          } finally {
            notify();
          }
        };
      }
      return wrapped as Methods;
    },
  };
}
