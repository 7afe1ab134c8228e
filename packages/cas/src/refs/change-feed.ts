/** How `watchChanges` watches: `pollMs`, for a backend that polls (SQLite), how often; default 100. */
export interface WatchChangesOptions {
  pollMs?: number;
}

/** Stops a watch: once it resolves, `onChange` is not called again. */
export type StopWatchingChanges = () => Promise<void>;

/** The store's change signal. */
export interface ChangeFeed {
  /**
   * The store's change signal: calls `onChange` soon after any process, this one included, changed a
   * thread record (created, updated, deleted), a lease or an evaluation report; it may also call it
   * for other writes (a chain cache, the registry) and calls it once for many changes made close
   * together. It says only that something changed: the caller reads what (`listThreads` with
   * `updatedSince`, `listLeases`). Cheap while nothing changes: memory calls it on its own writes;
   * SQLite compares `PRAGMA data_version` (which moves when another connection commits) every
   * `pollMs` (five times as often for 2 s after a change: writes come in bursts) and calls it at once
   * on this store's own writes; PostgreSQL listens for the
   * notification its tables' triggers send (`LISTEN uwf_changes`). Resolves once watching, so a
   * change committed after that is signalled; `onChange` must not throw.
   */
  watchChanges(onChange: () => void, options?: WatchChangesOptions): Promise<StopWatchingChanges>;
}
