import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

/**
 * A copy of the workflow file with each `[from, to]` replaced (each must be there), in a new folder
 * under `parent` so that it keeps its file name, and so its workflow name. Returns the copy's path.
 */
export function editedWorkflowCopy(
  workflow: string,
  parent: string,
  edits: ReadonlyArray<readonly [from: string, to: string]>,
): string {
  let text = readFileSync(workflow, "utf8");
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`the fixture has no ${JSON.stringify(from)}`);
    text = text.replace(from, to);
  }
  const file = join(mkdtempSync(join(parent, "edit-")), basename(workflow));
  writeFileSync(file, text);
  return file;
}
