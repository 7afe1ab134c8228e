import { statSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../../../errors/usage-error.ts";

/**
 * The thread's cwd as an absolute path: `--cwd` resolved against the working directory, which it
 * must name as an existing directory (a usage error otherwise, before anything is written: a
 * thread whose agents cannot start would fail only at its first step).
 */
export function resolveThreadCwd(cwd: string, threadCwd: string | undefined): string {
  const resolved = resolve(cwd, threadCwd ?? ".");
  if (threadCwd === undefined) return resolved;
  let isDirectory: boolean;
  try {
    isDirectory = statSync(resolved).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "no such directory" : `cannot be read (${code ?? String(error)})`;
    throw new UsageError(`--cwd ${resolved}: ${reason}`, { cwd: resolved });
  }
  if (!isDirectory) throw new UsageError(`--cwd ${resolved}: not a directory`, { cwd: resolved });
  return resolved;
}
