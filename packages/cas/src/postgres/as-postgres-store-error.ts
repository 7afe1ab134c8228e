import { isUwfError } from "@uwf/protocol";
import { RefStoreBusyError } from "../errors/ref-store-busy-error.ts";
import { StoreRefusedError } from "../errors/store-refused-error.ts";
import { StoreUnreachableError } from "../errors/store-unreachable-error.ts";
import { sqlStateOf } from "./sql-state-of.ts";

/** SQLSTATEs that say the server is away or cannot take uwf now: connection errors, shutdown, too many connections. */
const UNREACHABLE = /^(08...|57P0[1-4]|53300)$/;
/** The server refuses what uwf asks, and will again: login, missing database or schema, privileges, no space, read-only. */
const REFUSED = /^(28...|3D000|3F000|42501|53100|25006)$/;

/** lock_not_available: a lock another session held outlasted uwf's lock_timeout. */
const LOCK_TIMEOUT = "55P03";
/** query_canceled: the server's statement_timeout (or an administrator) cancelled the statement. */
const CANCELLED = "57014";
/** The client asked for SSL (`sslmode=require`) and the server has none: no retry will give it one. */
const NO_TLS = "ERR_POSTGRES_TLS_NOT_AVAILABLE";

/** Network errors of the socket under the client (Node's codes) and the client's own words for a lost connection. */
const NETWORK =
  /^(E(CONNREFUSED|CONNRESET|PIPE|TIMEDOUT|HOSTUNREACH|NETUNREACH|NOTFOUND|AI_AGAIN)|ERR_POSTGRES_(CONNECTION_\w+|\w*TIMEOUT\w*|TLS\w*))$/;

/**
 * A PostgreSQL client's error as the store's, naming the store by its masked URL: the server out
 * of reach (StoreUnreachableError, exit 75), rows another session keeps locked past uwf's
 * lock_timeout (RefStoreBusyError, 75), or a refusal that retrying will not change
 * (StoreRefusedError, 1: among them a statement the server's statement_timeout cancelled, and
 * `sslmode=require` against a server without SSL). Anything else as it is.
 */
export function asPostgresStoreError(error: unknown, shownUrl: string): unknown {
  if (isUwfError(error) || typeof error !== "object" || error === null) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const detail = typeof message === "string" && message !== "" ? message : String(code);
  const sqlState = sqlStateOf(error);
  if (sqlState === LOCK_TIMEOUT) {
    return new RefStoreBusyError(shownUrl, `another session kept a row uwf needs locked (SQLSTATE ${sqlState})`, error);
  }
  if (sqlState === CANCELLED) return new StoreRefusedError(shownUrl, sqlState, detail, error);
  if (code === NO_TLS) return new StoreRefusedError(shownUrl, "", `${detail} (${code})`, error);
  if (UNREACHABLE.test(sqlState)) return new StoreUnreachableError(shownUrl, `${detail} (SQLSTATE ${sqlState})`, error);
  if (REFUSED.test(sqlState)) return new StoreRefusedError(shownUrl, sqlState, detail, error);
  if (typeof code === "string" && NETWORK.test(code))
    return new StoreUnreachableError(shownUrl, `${detail} (${code})`, error);
  return error;
}
