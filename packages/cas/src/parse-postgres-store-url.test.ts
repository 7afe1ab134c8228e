import { describe, expect, it } from "bun:test";
import { InvalidStoreUrlError } from "./invalid-store-url-error.ts";
import { parsePostgresStoreUrl } from "./parse-postgres-store-url.ts";

describe("parsePostgresStoreUrl", () => {
  it("takes uwf's schema out of the URL the client gets, default uwf", () => {
    expect(parsePostgresStoreUrl("postgres://me:pw@host:5433/db?schema=team_a&sslmode=require")).toEqual({
      connectUrl: "postgres://me:pw@host:5433/db?sslmode=require",
      schema: "team_a",
      shown: "postgres://me:****@host:5433/db?schema=team_a&sslmode=require",
    });
    expect(parsePostgresStoreUrl("postgresql://me@host/db").schema).toBe("uwf");
  });

  it("refuses another scheme and a schema that is not a plain SQL name, naming the URL without its password", () => {
    expect(() => parsePostgresStoreUrl("mysql://me:pw@host/db")).toThrow(InvalidStoreUrlError);
    for (const schema of ["Team", "a-b", "1st", "x".repeat(64), "a;drop"]) {
      expect(() => parsePostgresStoreUrl(`postgres://me:pw@host/db?schema=${encodeURIComponent(schema)}`)).toThrow(
        "store URL postgres://me:****@host/db",
      );
    }
  });
});
