import { describe, expect, it } from "bun:test";
import { maskStoreUrl } from "./mask-store-url.ts";

describe("maskStoreUrl", () => {
  it("hides a URL's password and nothing else", () => {
    expect(maskStoreUrl("postgres://uwf:s3cret@db.internal:5432/uwf?schema=team&sslmode=require")).toBe(
      "postgres://uwf:****@db.internal:5432/uwf?schema=team&sslmode=require",
    );
    expect(maskStoreUrl("postgresql://uwf:p%40ss@127.0.0.1/db")).toBe("postgresql://uwf:****@127.0.0.1/db");
  });

  it("leaves text without a password as it is", () => {
    for (const text of ["postgres://uwf@127.0.0.1/db", "file", "", "not a url", "someone@example"]) {
      expect(maskStoreUrl(text)).toBe(text);
    }
  });

  it("masks the password of a URL it cannot parse, too", () => {
    expect(maskStoreUrl("postgres://uwf:s3cret@[bad/db")).toBe("postgres://uwf:****@[bad/db");
  });
});
