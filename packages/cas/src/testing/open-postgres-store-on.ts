import type { ObjectStore } from "../objects/object-store.ts";
import { createPostgresObjectStore } from "../postgres/create-postgres-object-store.ts";
import { createPostgresRefStore } from "../postgres/create-postgres-ref-store.ts";
import { parsePostgresStoreUrl } from "../postgres/parse-postgres-store-url.ts";
import type { PostgresConnection } from "../postgres/postgres-connection.ts";
import { migratePostgresStore } from "../postgres/postgres-migrations.ts";
import type { RefStore } from "../refs/ref-store.ts";

export interface PostgresStoreOn {
  connection: PostgresConnection;
  objects: ObjectStore;
  refs: RefStore;
}

/**
 * The PostgreSQL store of `url` on a connection `open` makes (given the URL to connect to), its
 * schema created or migrated, without the driver-error translation openPostgresStore adds: how
 * bench/postgres-clients.ts drives the same store code through two clients.
 */
export async function openPostgresStoreOn(
  url: string,
  open: (connectUrl: string) => PostgresConnection,
): Promise<PostgresStoreOn> {
  const { connectUrl, schema, shown } = parsePostgresStoreUrl(url);
  const connection = open(connectUrl);
  await migratePostgresStore(connection, schema, shown);
  return {
    connection,
    objects: createPostgresObjectStore(connection, schema),
    refs: createPostgresRefStore(connection, schema),
  };
}
