import { InvalidStoreUrlError } from "../errors/invalid-store-url-error.ts";
import { isPostgresStoreUrl } from "./is-postgres-store-url.ts";
import { maskStoreUrl } from "./mask-store-url.ts";

/** The schema uwf's tables live in when the URL names none. */
export const DEFAULT_POSTGRES_SCHEMA = "uwf";

export interface PostgresStoreUrl {
  /** The URL the client connects with: the given one without uwf's own `schema` parameter. */
  connectUrl: string;
  /** The schema that holds uwf's tables (`?schema=NAME`, default `uwf`): a plain lower-case SQL name. */
  schema: string;
  /** The URL as errors show it, password masked. */
  shown: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** PostgreSQL's own schemas: `pg_` names are reserved for the system (pg_catalog, pg_temp, pg_toast, …). */
const SYSTEM_SCHEMA = /^(pg_|information_schema$)/;

/** The `sslmode` values PostgreSQL clients know; anything else is a typo the client would crash on. */
const SSL_MODES = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"];

/** Reads `postgres://user:password@host:port/database?schema=NAME`; other parameters go to the client. */
export function parsePostgresStoreUrl(url: string): PostgresStoreUrl {
  const shown = maskStoreUrl(url);
  if (!isPostgresStoreUrl(url)) throw new InvalidStoreUrlError(shown, "not a postgres:// or postgresql:// URL");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidStoreUrlError(shown, "not a valid URL");
  }
  const schema = parsed.searchParams.get("schema") ?? DEFAULT_POSTGRES_SCHEMA;
  if (!SCHEMA_NAME.test(schema)) {
    throw new InvalidStoreUrlError(shown, `schema "${schema}" is not a plain SQL name (a-z, 0-9, _; at most 63)`);
  }
  if (SYSTEM_SCHEMA.test(schema)) {
    throw new InvalidStoreUrlError(shown, `schema "${schema}" is one of PostgreSQL's own; name a schema of uwf's`);
  }
  const sslMode = parsed.searchParams.get("sslmode");
  if (sslMode !== null && !SSL_MODES.includes(sslMode)) {
    throw new InvalidStoreUrlError(shown, `sslmode "${sslMode}" is not one of ${SSL_MODES.join(", ")}`);
  }
  parsed.searchParams.delete("schema");
  return { connectUrl: parsed.toString(), schema, shown };
}
