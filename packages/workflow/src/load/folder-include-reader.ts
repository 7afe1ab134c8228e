import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { isPathInside } from "../files/is-path-inside.ts";
import { safeReadBoundedFile } from "../files/read-bounded-file.ts";
import type { ReadInclude } from "./parse-workflow-yaml.ts";
import { MAX_WORKFLOW_BYTES } from "./workflow-limits.ts";

/**
 * Reads `!include` targets from a workflow's folder (and its subfolders) and nowhere else.
 * The check runs on the real path, after symlinks, so a link inside the folder cannot
 * lead out of it.
 */
export function createFolderIncludeReader(folder: string): ReadInclude {
  const root = realpathSync(folder);
  return (includePath) => {
    if (isAbsolute(includePath)) throw new Error("an absolute path; includes are relative to the workflow's folder");
    const candidate = resolve(root, includePath);
    if (!isPathInside(root, candidate)) throw new Error("outside the workflow's folder");
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      throw new Error("no such file in the workflow's folder");
    }
    if (!isPathInside(root, real)) throw new Error("a symlink that leads outside the workflow's folder");
    const read = safeReadBoundedFile(real, { maxBytes: MAX_WORKFLOW_BYTES });
    if (!read.success) throw new Error(read.problem);
    return read.value;
  };
}
