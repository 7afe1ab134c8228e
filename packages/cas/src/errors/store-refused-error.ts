import { UwfError } from "@uwf/protocol";

/**
 * The store's server answered but refuses what uwf needs, which retrying will not change: a wrong
 * user or password, a database or schema that does not exist, missing privileges, a full or
 * read-only server, a statement_timeout too short for uwf's statements, a server without the SSL
 * the URL requires. `sqlState` is the server's SQLSTATE (`28P01`, `3D000`, ...), "" when the
 * refusal came before any (the SSL one).
 */
export class StoreRefusedError extends UwfError<"store-refused"> {
  static override readonly code = "store-refused" as const;
  static override readonly name = "StoreRefusedError";

  constructor(url: string, sqlState: string, detail: string, cause?: unknown) {
    const hint =
      sqlState === "" ? NO_SQL_STATE_HINT : (HINTS.find(([prefix]) => sqlState.startsWith(prefix))?.[1] ?? "");
    const state = sqlState === "" ? "" : ` (SQLSTATE ${sqlState})`;
    super(`the store ${url} refused uwf: ${detail}${state}${hint}`, {
      data: { url, sqlState, detail },
      cause,
    });
  }
}

const HINTS: ReadonlyArray<readonly [string, string]> = [
  ["28", "; check the user and password in the store URL"],
  ["3D000", "; create the database first (createdb), or name another in the store URL"],
  ["42501", "; the store URL's user needs the privileges to create and change uwf's tables"],
  ["57014", "; the server's statement_timeout cancelled it: raise it for the store URL's user or database"],
];

/** The one refusal without a SQLSTATE: the client's, when the server offers no SSL. */
const NO_SQL_STATE_HINT = "; the server offers no SSL: enable it there, or change sslmode in the store URL";
