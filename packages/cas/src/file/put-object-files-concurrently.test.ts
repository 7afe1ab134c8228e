import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createTemporaryDirectory } from "../testing/temporary-directory.ts";
import { putObjectFilesConcurrently } from "./put-object-files-concurrently.ts";

describe("putObjectFilesConcurrently", () => {
  let home: ReturnType<typeof createTemporaryDirectory>;
  let directory: string;
  beforeEach(() => {
    home = createTemporaryDirectory();
    directory = join(home.path, "AA");
    mkdirSync(directory);
  });
  afterEach(() => home.remove());

  const write = (name: string) => ({
    directory,
    path: join(directory, `${name}.json`),
    bytes: new TextEncoder().encode(name),
  });

  it("removes the temporary file of a file whose rename fails, and finishes the others", async () => {
    const names = Array.from({ length: 100 }, (_, index) => `file-${index}`);
    // Its temporary file can be written, but the rename into a directory that is not there fails.
    const unrenamable = { ...write("unrenamable"), path: join(home.path, "missing", "unrenamable.json") };
    const writes = [...names.slice(0, 50).map(write), unrenamable, ...names.slice(50).map(write)];
    await expect(putObjectFilesConcurrently(writes, 8)).rejects.toThrow("ENOENT");
    const entries = readdirSync(directory);
    for (const entry of entries) expect(entry).toMatch(/^file-\d+\.json$/);
    expect(entries.length).toBeGreaterThanOrEqual(50);
    for (const entry of entries) expect(readFileSync(join(directory, entry), "utf8")).toBe(entry.slice(0, -5));
  });
});
