import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomically } from "./write-file-atomically.ts";

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "uwf-write-atomically-"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function modeOf(file: string): number {
  return statSync(file).mode & 0o777;
}

describe("writeFileAtomically", () => {
  it("writes the whole text, creating the folder, and leaves no temp file", async () => {
    const file = join(root, "new", "config.yaml");
    await writeFileAtomically(file, "a: 1\n");
    expect(readFileSync(file, "utf8")).toBe("a: 1\n");
    expect(readdirSync(join(root, "new"))).toEqual(["config.yaml"]);
  });

  it("creates the file with exactly the mode it is given", async () => {
    const file = join(root, "private", ".env");
    await writeFileAtomically(file, "KEY=1\n", { mode: 0o600 });
    expect(modeOf(file)).toBe(0o600);
  });

  it("narrows the mode of a file it replaces", async () => {
    const file = join(root, "replaced.env");
    writeFileSync(file, "OLD=1\n", { mode: 0o644 });
    await writeFileAtomically(file, "NEW=1\n", { mode: 0o600 });
    expect(readFileSync(file, "utf8")).toBe("NEW=1\n");
    expect(modeOf(file)).toBe(0o600);
  });
});
