import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFolderIncludeReader } from "./folder-include-reader.ts";
import type { ReadInclude } from "./parse-workflow-yaml.ts";
import { MAX_WORKFLOW_BYTES } from "./workflow-limits.ts";

let root: string;
let read: ReadInclude;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "uwf-folder-include-"));
  const folder = join(root, "workflows");
  mkdirSync(join(folder, "shared"), { recursive: true });
  writeFileSync(join(folder, "shared", "goal.md"), "Write.\n");
  writeFileSync(join(folder, "huge.md"), "x".repeat(MAX_WORKFLOW_BYTES + 1));
  writeFileSync(join(root, "secret.md"), "outside\n");
  symlinkSync(join(root, "secret.md"), join(folder, "link.md"));
  read = createFolderIncludeReader(folder);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("createFolderIncludeReader", () => {
  it("reads a file of the folder or below", () => {
    expect(read("shared/goal.md")).toEqual({ success: true, value: "Write.\n" });
    expect(read("./shared/../shared/goal.md")).toEqual({ success: true, value: "Write.\n" });
  });

  it("refuses, as a result saying why, whatever is not a file of the folder", () => {
    const refusals = {
      [join(root, "secret.md")]: "an absolute path; includes are relative to the workflow's folder",
      "../secret.md": "outside the workflow's folder",
      "nope.md": "no such file in the workflow's folder",
      "link.md": "a symlink that leads outside the workflow's folder",
      shared: "is a directory, not a file",
    };
    for (const [path, problem] of Object.entries(refusals)) {
      expect({ path, read: read(path) }).toEqual({ path, read: { success: false, problem } });
    }
    const huge = read("huge.md");
    expect(huge.success).toBe(false);
    expect(huge.success ? "" : huge.problem).toStartWith(`is ${MAX_WORKFLOW_BYTES + 1} bytes, over the `);
  });
});
