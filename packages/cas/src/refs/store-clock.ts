/** The time every process sharing the store agrees on. */
export interface StoreClock {
  /**
   * The store's time: PostgreSQL's clock (`now()`), so processes on several machines agree on when a
   * suspension's deadline or a schedule's fire time has come; this machine's clock for the embedded and
   * memory stores, which only this machine's processes share.
   */
  clock(): Promise<Date>;
}
