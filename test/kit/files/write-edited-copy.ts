import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

/**
 * Writes a copy of `file` with each `[from, to]` replaced once (each must be there) into `folder`
 * (created), under the same name, so a workflow copy keeps its name; returns the copy's path.
 */
export function writeEditedCopy(file: string, folder: string, edits: ReadonlyArray<readonly [string, string]>): string {
  let text = readFileSync(file, "utf8");
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`${basename(file)} has no ${JSON.stringify(from)}`);
    text = text.replace(from, to);
  }
  mkdirSync(folder, { recursive: true });
  const copy = join(folder, basename(file));
  writeFileSync(copy, text);
  return copy;
}
