import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh temp directory (real path, so it compares equal to what `pwd` prints) and a function that removes it. */
export function makeTempDirectory(prefix = "uwf-agent-test-"): { path: string; remove: () => void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
