import { describe, expect, it } from "bun:test";
import { InvalidStoreUrlError } from "../errors/invalid-store-url-error.ts";
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

  it("refuses PostgreSQL's own schemas and an sslmode the client does not know, as the URL's fault", () => {
    for (const schema of ["pg_catalog", "pg_temp", "pg_toast", "pg_anything", "information_schema"]) {
      expect(() => parsePostgresStoreUrl(`postgres://me:pw@host/db?schema=${schema}`)).toThrow(
        `schema "${schema}" is one of PostgreSQL's own; name a schema of uwf's`,
      );
    }
    expect(() => parsePostgresStoreUrl("postgres://me:pw@host/db?sslmode=bogus")).toThrow(
      'sslmode "bogus" is not one of disable, allow, prefer, require, verify-ca, verify-full',
    );
    for (const mode of ["disable", "prefer", "require", "verify-full"]) {
      expect(parsePostgresStoreUrl(`postgres://me:pw@host/db?sslmode=${mode}`).connectUrl).toContain(mode);
    }
  });
});
