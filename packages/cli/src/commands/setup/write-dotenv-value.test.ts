import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dotenvFilePath } from "@uwf/agent-kit";
import type { UwfError } from "@uwf/protocol";
import { writeDotenvValue } from "./write-dotenv-value.ts";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "uwf-dotenv-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

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
