import { SQL } from "bun";
import type { PostgresConnection, PostgresQuery } from "./postgres-connection.ts";

export interface OpenPostgresConnectionOptions {
  /** Connections in the pool, opened as needed; default 4. */
  maxConnections?: number;
  /** How long to wait for a connection before failing, in seconds; default 10. */
  connectTimeoutSeconds?: number;
}

/**
 * A pool of connections to `url` through Bun's built-in PostgreSQL client: nothing to install, and
 * no connection is opened before the first statement. Statements are prepared once per connection.
 */
export function openPostgresConnection(url: string, options: OpenPostgresConnectionOptions = {}): PostgresConnection {
  const sql = new SQL(url, {
    max: options.maxConnections ?? 4,
    connectionTimeout: options.connectTimeoutSeconds ?? 10,
    // So the server's activity views tell uwf's connections apart.
    connection: { application_name: "uwf" },
  });
  const queryOn =
    (client: SQL): PostgresQuery =>
    async <Row>(text: string, values: readonly unknown[] = []) =>
      (await client.unsafe(text, values as unknown[])) as Row[];
  return {
    query: queryOn(sql),
    transaction: <Result>(work: (query: PostgresQuery) => Promise<Result>) =>
      sql.begin((transaction) => work(queryOn(transaction))) as Promise<Result>,
    close: () => sql.close(),
  };
}
