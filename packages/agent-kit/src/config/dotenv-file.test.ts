import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UwfError } from "@uwf/protocol";
import { dotenvFilePath, readDotenvValue, writeDotenvValue } from "./dotenv-file.ts";

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

describe("writeDotenvValue", () => {
  it("keeps the other lines of the .env", async () => {
    writeFileSync(dotenvFilePath(home), "# mine\nOTHER=1\n");
    await writeDotenvValue(home, "ANTHROPIC_API_KEY", "sk-test");
    expect(readFileSync(dotenvFilePath(home), "utf8")).toBe('# mine\nOTHER=1\nANTHROPIC_API_KEY="sk-test"\n');
  });

  it("refuses to write when the .env exists but cannot be read, and leaves it as it was", async () => {
    mkdirSync(dotenvFilePath(home));
    writeFileSync(join(dotenvFilePath(home), "kept"), "x");
    const error = await writeDotenvValue(home, "ANTHROPIC_API_KEY", "sk-test").catch((caught: unknown) => caught);
    expect((error as UwfError).code).toBe("dotenv-unreadable");
    expect(statSync(dotenvFilePath(home)).isDirectory()).toBe(true);
    expect(readFileSync(join(dotenvFilePath(home), "kept"), "utf8")).toBe("x");
  });
});
