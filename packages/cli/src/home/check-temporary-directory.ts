import { statSync } from "node:fs";
import { UsageError } from "../errors/usage-error.ts";

/**
 * `TMPDIR`, when set, must name a directory: agents' prompt files are written there, and a file or
 * a missing path in its place failed the step half-way with an internal error (after `run` had
 * already started its thread). Checked before any command does anything, so nothing is written.
 */
export function checkTemporaryDirectory(env: NodeJS.ProcessEnv): void {
  const directory = env.TMPDIR;
  if (directory === undefined || directory === "") return;
  const stats = statSync(directory, { throwIfNoEntry: false });
  if (stats?.isDirectory() === true) return;
  const what = stats === undefined ? "does not exist" : "is not a directory";
  throw new UsageError(`TMPDIR ${directory} ${what}: point it at a directory, or unset it`, { TMPDIR: directory });
}
