import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createTemporaryDirectory } from "../testing/temporary-directory.ts";
import { writeObjectFiles } from "./write-object-files.ts";

describe("writeObjectFiles", () => {
  let home: ReturnType<typeof createTemporaryDirectory>;
  beforeEach(() => {
    home = createTemporaryDirectory();
    mkdirSync(join(home.path, "AA"));
  });
  afterEach(() => home.remove());

  const bytes = (text: string) => new TextEncoder().encode(text);

  it("puts every file in place in a durable batch", async () => {
    const directory = join(home.path, "AA");
    const writes = ["one", "two", "three"].map((name) => ({
      directory,
      path: join(directory, `${name}.json`),
      bytes: bytes(name),
    }));
    await writeObjectFiles(writes, { durable: true, parentDirectories: [home.path] });
    expect(readdirSync(directory).sort()).toEqual(["one.json", "three.json", "two.json"]);
    expect(readFileSync(join(directory, "two.json"), "utf8")).toBe("two");
  });

  it("removes the temporary files of a durable batch that fails, and renames none", async () => {
    const directory = join(home.path, "AA");
    const missing = join(home.path, "BB");
    const writes = [
      { directory, path: join(directory, "one.json"), bytes: bytes("one") },
      { directory: missing, path: join(missing, "two.json"), bytes: bytes("two") },
    ];
    await expect(writeObjectFiles(writes, { durable: true, parentDirectories: [] })).rejects.toThrow();
    expect(readdirSync(directory)).toEqual([]);
  });
});
