import { afterEach, beforeEach, describe, expect, it, spyOn } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTemporaryDirectory } from "../testing/temporary-directory.ts";
import { temporaryPath } from "./object-file-layout.ts";
import { putObjectFilesConcurrently } from "./put-object-files-concurrently.ts";
import { writeObjectFiles } from "./write-object-files.ts";

/**
 * Temporary file names are unique per process and random across machines, so a taken one is all but
 * impossible; but if it happens, the file at that name is another writer's, and a write without fsync
 * must neither overwrite it nor remove it. Math.random is held still so the next name is known.
 */
describe("a write without fsync whose temporary file name is taken", () => {
  let home: ReturnType<typeof createTemporaryDirectory>;
  let directory: string;
  let random: ReturnType<typeof spyOn>;
  beforeEach(() => {
    home = createTemporaryDirectory();
    directory = join(home.path, "AA");
    mkdirSync(directory);
    random = spyOn(Math, "random").mockReturnValue(0.5);
  });
  afterEach(() => {
    random.mockRestore();
    home.remove();
  });

  /** Writes another writer's file at the name the next temporary file will get. */
  function takeNextTemporaryName(): string {
    const match = /\.tmp-([0-9a-z]+)-([0-9a-z]+)-([0-9a-z]+)$/.exec(temporaryPath(directory));
    const [, process = "", counter = "", suffix = ""] = match ?? [];
    const next = join(directory, `.tmp-${process}-${(Number.parseInt(counter, 36) + 1).toString(36)}-${suffix}`);
    writeFileSync(next, "another writer's");
    return next;
  }

  const object = () => ({ directory, path: join(directory, "one.json"), bytes: new TextEncoder().encode("one") });

  it("fails in a batch written one file at a time, and leaves the other file as it was", async () => {
    const taken = takeNextTemporaryName();
    await expect(writeObjectFiles([object()], { durable: false, parentDirectories: [] })).rejects.toThrow("EEXIST");
    expect(readFileSync(taken, "utf8")).toBe("another writer's");
    expect(existsSync(object().path)).toBe(false);
  });

  it("fails in a batch written concurrently, and leaves the other file as it was", async () => {
    const taken = takeNextTemporaryName();
    await expect(putObjectFilesConcurrently([object()], 4)).rejects.toThrow("EEXIST");
    expect(readFileSync(taken, "utf8")).toBe("another writer's");
    expect(existsSync(object().path)).toBe(false);
  });
});
