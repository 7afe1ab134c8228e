import { translateErrors } from "../errors/translate-errors.ts";
import type { Store } from "../store.ts";
import { asPostgresStoreError } from "./as-postgres-store-error.ts";
import { createPostgresObjectStore } from "./create-postgres-object-store.ts";
import { createPostgresRefStore } from "./create-postgres-ref-store.ts";
import { openPostgresConnection } from "./open-postgres-connection.ts";
import type { OpenPostgresStoreOptions } from "./open-postgres-store.ts";
import { parsePostgresStoreUrl } from "./parse-postgres-store-url.ts";
import { migratePostgresStore } from "./postgres-migrations.ts";

/** What openPostgresStore loads on first use (see there). */
export async function connectPostgresStore(url: string, options: OpenPostgresStoreOptions = {}): Promise<Store> {
  const { connectUrl, schema, shown } = parsePostgresStoreUrl(url);
  const translate = (error: unknown) => asPostgresStoreError(error, shown);
  const connection = openPostgresConnection(connectUrl, options);
  try {
    await migratePostgresStore(connection, schema, shown);
  } catch (error) {
    await connection.close();
    throw translate(error);
  }
  return {
    objects: translateErrors(createPostgresObjectStore(connection, schema), translate),
    refs: translateErrors(createPostgresRefStore(connection, schema), translate),
    close: () => connection.close(),
  };
}
