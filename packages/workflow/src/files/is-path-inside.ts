import { isAbsolute, relative, sep } from "node:path";

/**
 * Whether `path` is `directory` itself or below it (both absolute, compared as written: resolve
 * symlinks first when they matter). A name that merely starts with two dots, like `..x`, is inside.
 */
export function isPathInside(directory: string, path: string): boolean {
  const relativePath = relative(directory, path);
  if (relativePath === "") return true;
  return relativePath !== ".." && !relativePath.startsWith(`..${sep}`) && !isAbsolute(relativePath);
}
