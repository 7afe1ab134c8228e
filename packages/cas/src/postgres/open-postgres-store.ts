import type { Store } from "../store.ts";
import type { OpenPostgresConnectionOptions } from "./open-postgres-connection.ts";

export type OpenPostgresStoreOptions = OpenPostgresConnectionOptions;

/**
 * The PostgreSQL backend: objects and refs in the tables of one schema (`?schema=NAME` in the URL,
 * default `uwf`) of the database `url` names, created or migrated on open (see postgres-migrations.ts).
 * Connection failures and a server going away are StoreUnreachableError (retry later); a refused
 * login, a missing database or missing privileges are StoreRefusedError; errors name the URL with
 * its password masked. The client and the backend's modules load on the first call, so commands on
 * the file store never load them.
 */
export async function openPostgresStore(url: string, options: OpenPostgresStoreOptions = {}): Promise<Store> {
  const { connectPostgresStore } = await import("./connect-postgres-store.ts");
  return connectPostgresStore(url, options);
}
