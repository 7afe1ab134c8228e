/** One statement with `$1`, `$2`, ... parameters, and the rows it returns (none for a statement without RETURNING). */
export type PostgresQuery = <Row = Record<string, unknown>>(
  text: string,
  values?: readonly unknown[],
) => Promise<Row[]>;

/**
 * What the PostgreSQL store needs of a client: statements, transactions and closing. A seam of
 * three methods, so the store's SQL is written once and the clients could be measured on it (see
 * docs/store.md); the store uses Bun's built-in client (openPostgresConnection).
 */
export interface PostgresConnection {
  query: PostgresQuery;
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<Result>(work: (query: PostgresQuery) => Promise<Result>): Promise<Result>;
  /**
   * Listens on a channel (`LISTEN`, on a connection of its own, kept outside the pool): `onNotify` gets
   * each notification's payload, and `onListen` runs once the server acknowledged it, first and after
   * every reconnection (when notifications may have been missed). Resolves once listening, with a
   * function that stops.
   */
  listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
