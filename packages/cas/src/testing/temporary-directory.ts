import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh directory under the system temp dir, and a function that removes it with everything in it. */
export function createTemporaryDirectory(label = "uwf-cas-"): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), label));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
