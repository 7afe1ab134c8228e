import { SQL } from "bun";
import type { PostgresConnection, PostgresQuery } from "./postgres-connection.ts";
import { sqlStateOf } from "./sql-state-of.ts";

/**
 * admin_shutdown: the server ended the session (a restart, pg_terminate_backend) before the
 * statement completed, so it had no effect. Each pooled connection the server ended while idle
 * fails its next statement so, and leaves the pool: trying again, at most once per connection the
 * pool holds, reaches a new one, which goes through once the server is back (and fails as
 * unreachable while it is not).
 */
const SESSION_ENDED = "57P01";

async function retryingEndedSessions<Result>(tries: number, attempt: () => Promise<Result>): Promise<Result> {
  for (let left = tries; ; left--) {
    try {
      return await attempt();
    } catch (error) {
      if (left <= 1 || sqlStateOf(error) !== SESSION_ENDED) throw error;
    }
  }
}

export interface OpenPostgresConnectionOptions {
  /** Connections in the pool, opened as needed; default 4. */
  maxConnections?: number;
  /** How long to wait for a connection before failing, in seconds; default 10. */
  connectTimeoutSeconds?: number;
  /**
   * How long a statement may wait for a lock another session holds (a row, a table, the migration
   * lock) before it fails as busy (exit 75), in seconds; default DEFAULT_LOCK_TIMEOUT_SECONDS.
   * Without it, rows another session keeps locked (an open transaction left in a psql) made uwf wait forever.
   */
  lockTimeoutSeconds?: number;
}

/** uwf's own statements hold row locks for milliseconds; a wait this long is another session's doing. */
export const DEFAULT_LOCK_TIMEOUT_SECONDS = 15;

/**
 * A pool of connections to `url` through Bun's built-in PostgreSQL client: nothing to install, and
 * no connection is opened before the first statement. Statements are prepared once per connection.
 */
export function openPostgresConnection(url: string, options: OpenPostgresConnectionOptions = {}): PostgresConnection {
  const maxConnections = options.maxConnections ?? 4;
  const sql = new SQL(url, {
    max: maxConnections,
    connectionTimeout: options.connectTimeoutSeconds ?? 10,
    connection: {
      // So the server's activity views tell uwf's connections apart.
      application_name: "uwf",
      lock_timeout: `${Math.round((options.lockTimeoutSeconds ?? DEFAULT_LOCK_TIMEOUT_SECONDS) * 1000)}ms`,
    },
  });
  const queryOn =
    (client: SQL): PostgresQuery =>
    async <Row>(text: string, values: readonly unknown[] = []) =>
      (await client.unsafe(text, values as unknown[])) as Row[];
  const query = queryOn(sql);
  return {
    query: (text, values) => retryingEndedSessions(maxConnections + 1, () => query(text, values)),
    transaction: <Result>(work: (query: PostgresQuery) => Promise<Result>) =>
      retryingEndedSessions(
        maxConnections + 1,
        () => sql.begin((transaction) => work(queryOn(transaction))) as Promise<Result>,
      ),
    async listen(channel, onNotify, onListen) {
      const subscription = await sql.listen(channel, onNotify, onListen);
      return () => subscription.unlisten();
    },
    close: () => sql.close(),
  };
}
