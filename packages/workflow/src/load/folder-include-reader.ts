import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { isPathInside } from "../files/is-path-inside.ts";
import { safeReadBoundedFile } from "../files/read-bounded-file.ts";
import type { ReadInclude } from "./parse-workflow-yaml.ts";
import { MAX_WORKFLOW_BYTES } from "./workflow-limits.ts";

/**
 * Reads `!include` targets from a workflow's folder (and its subfolders) and nowhere else.
 * The check runs on the real path, after symlinks, so a link inside the folder cannot
 * lead out of it. A refusal is a result, whose problem the parser reports at the `!include`.
 */
export function createFolderIncludeReader(folder: string): ReadInclude {
  const root = realpathSync(folder);
  return (includePath) => {
    if (isAbsolute(includePath)) {
      return { success: false, problem: "an absolute path; includes are relative to the workflow's folder" };
    }
    const candidate = resolve(root, includePath);
    if (!isPathInside(root, candidate)) return { success: false, problem: "outside the workflow's folder" };
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      return { success: false, problem: "no such file in the workflow's folder" };
    }
    if (!isPathInside(root, real)) {
      return { success: false, problem: "a symlink that leads outside the workflow's folder" };
    }
    const read = safeReadBoundedFile(real, { maxBytes: MAX_WORKFLOW_BYTES });
    return read.success ? read : { success: false, problem: read.problem };
  };
}
