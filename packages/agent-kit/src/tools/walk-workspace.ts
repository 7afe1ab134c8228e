import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";

/** Directories the listing and search tools do not enter. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([".git", "node_modules", ".uwf"]);

export interface WorkspaceEntry {
  path: string;
  /** Relative to the workspace, with `/` separators. */
  relativePath: string;
  kind: "file" | "directory" | "symlink" | "other";
}

/**
 * The entries under `directory`, sorted by name, depth first. Symlinks are
 * listed but never followed, so the walk stays inside the workspace; the
 * `excluded` directories (absolute paths: the uwf home) are listed but not entered.
 */
export async function* walkWorkspace(
  workspace: string,
  directory: string,
  recursive: boolean,
  excluded: readonly string[] = [],
): AsyncGenerator<WorkspaceEntry> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(directory, entry.name);
    const kind = entry.isDirectory()
      ? "directory"
      : entry.isFile()
        ? "file"
        : entry.isSymbolicLink()
          ? "symlink"
          : "other";
    yield { path, relativePath: relative(workspace, path).split("\\").join("/"), kind };
    if (recursive && kind === "directory" && !SKIPPED_DIRECTORIES.has(entry.name) && !excluded.includes(path)) {
      yield* walkWorkspace(workspace, path, true, excluded);
    }
  }
}
