import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UwfError } from "@uwf/protocol";
import { dotenvFilePath, readDotenvValue } from "./dotenv-file.ts";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "uwf-dotenv-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("readDotenvValue", () => {
  it("is undefined when the home has no .env, or the .env no such entry", async () => {
    expect(await readDotenvValue(home, "ANTHROPIC_API_KEY")).toBeUndefined();
    writeFileSync(dotenvFilePath(home), "OTHER=1\n");
    expect(await readDotenvValue(home, "ANTHROPIC_API_KEY")).toBeUndefined();
    expect(await readDotenvValue(home, "OTHER")).toBe("1");
  });

  it("fails, naming the file, when the .env exists but cannot be read", async () => {
    mkdirSync(dotenvFilePath(home));
    const error = await readDotenvValue(home, "ANTHROPIC_API_KEY").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UwfError);
    expect((error as UwfError).code).toBe("dotenv-unreadable");
    expect((error as UwfError).message).toStartWith(`cannot read ${dotenvFilePath(home)}: `);
  });
});
