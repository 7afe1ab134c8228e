import { UwfError } from "@uwf/protocol";

/**
 * The store's server answered but refuses what uwf needs, which retrying will not change: a wrong
 * user or password, a database or schema that does not exist, missing privileges, a full or
 * read-only server. `sqlState` is the server's SQLSTATE (`28P01`, `3D000`, ...).
 */
export class StoreRefusedError extends UwfError {
  static readonly code = "store-refused" as const;

  constructor(url: string, sqlState: string, detail: string, cause?: unknown) {
    const hint = HINTS.find(([prefix]) => sqlState.startsWith(prefix))?.[1] ?? "";
    super(StoreRefusedError.code, `the store ${url} refused uwf: ${detail} (SQLSTATE ${sqlState})${hint}`, {
      data: { url, sqlState, detail },
      cause,
    });
    this.name = "StoreRefusedError";
  }
}

const HINTS: ReadonlyArray<readonly [string, string]> = [
  ["28", "; check the user and password in the store URL"],
  ["3D000", "; create the database first (createdb), or name another in the store URL"],
  ["42501", "; the store URL's user needs the privileges to create and change uwf's tables"],
];
