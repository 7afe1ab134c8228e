/** Ref writes that belong together, committed as one where a backend can. */
export interface WriteTogether {
  /**
   * Runs `work`, whose writes through this store are committed together: on SQLite one transaction, so
   * a step's head, chain index and search words cost one commit and are seen together; a failure of
   * `work` (or of the commit) leaves none of them. Backends without it run the writes as they come.
   * `work` calls nothing but this store's methods (it must not wait on anything else meanwhile).
   */
  writeTogether?<Result>(work: () => Promise<Result>): Promise<Result>;
}
