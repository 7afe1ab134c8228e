import { readFileSync, type Stats, statSync } from "node:fs";
import { resolve } from "node:path";
import { InputFileError } from "./errors/input-file-error.ts";

export interface ReadInputFileOptions {
  cwd: string;
  /** How the message names the file: as it was given (`reply.md`, `--output reply.md`). */
  label: string;
}

/**
 * The text of a file named on the command line; `-` reads stdin to its end. A missing file, a
 * folder or a device is an InputFileError naming it (a pipe, as `<(…)` gives, is read); any other
 * failure (permissions, I/O) reaches the error boundary as it is.
 */
export async function readInputFile(file: string, options: ReadInputFileOptions): Promise<string> {
  if (file === "-") return Bun.stdin.text();
  const path = resolve(options.cwd, file);
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new InputFileError(options.label, path, "no such file");
    throw error;
  }
  if (stats.isDirectory()) throw new InputFileError(options.label, path, "is a directory, not a file");
  if (!stats.isFile() && !stats.isFIFO()) throw new InputFileError(options.label, path, "not a regular file");
  return readFileSync(path, "utf8");
}
