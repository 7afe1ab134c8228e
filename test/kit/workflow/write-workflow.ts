import { writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Writes a workflow a test spells out inline — `name: NAME`, then `lines` — to `NAME.yaml` in `folder`
 * and returns the file's path. The name stands on line 1, so a test's expected line numbers count from it.
 */
export function writeWorkflow(folder: string, name: string, lines: readonly string[]): string {
  const file = join(folder, `${name}.yaml`);
  writeFileSync(file, [`name: ${name}`, ...lines, ""].join("\n"));
  return file;
}
