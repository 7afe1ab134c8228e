import { lstat, realpath } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { isPathInside } from "@uwf/workflow";
import { PathOutsideWorkspaceError } from "../errors/path-outside-workspace-error.ts";

/**
 * The real path a file tool may use for `path` (relative to the workspace, or
 * absolute inside it). Symlinks are resolved before the check, so neither `..`
 * nor a link can lead outside; for a path that does not exist yet, its nearest
 * existing ancestor is resolved. A dangling symlink is refused: writing through
 * it could create a file anywhere. Throws `PathOutsideWorkspaceError`.
 *
 * `workspace` must itself be a real path (see `realpath`).
 */
export async function resolveWorkspacePath(workspace: string, path: string): Promise<string> {
  if (path.trim() === "")
    throw new PathOutsideWorkspaceError(JSON.stringify(path), workspace, "is empty, not a path in");
  const candidate = resolve(workspace, path);
  if (!isPathInside(workspace, candidate)) throw new PathOutsideWorkspaceError(path, workspace);

  const missing: string[] = [];
  let existing = candidate;
  for (;;) {
    const stats = await lstat(existing).catch(() => null);
    if (stats !== null) {
      let real: string;
      try {
        real = await realpath(existing);
      } catch {
        throw new PathOutsideWorkspaceError(path, workspace, "is a dangling symlink; refused in");
      }
      if (!isPathInside(workspace, real)) {
        throw new PathOutsideWorkspaceError(path, workspace, "leads through a symlink outside");
      }
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    }
    const parent = resolve(existing, "..");
    if (parent === existing) throw new PathOutsideWorkspaceError(path, workspace);
    missing.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    existing = parent;
  }
}

/** The path relative to the workspace, for messages (`.` for the workspace itself). */
export function workspaceRelative(workspace: string, path: string): string {
  const relativePath = relative(workspace, path);
  return relativePath === "" ? "." : relativePath;
}
