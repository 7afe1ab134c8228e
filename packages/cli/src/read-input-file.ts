import { resolve } from "node:path";
import {
  MAX_INPUT_FILE_BYTES,
  type ReadBoundedFileResult,
  readBoundedStream,
  safeReadBoundedFile,
} from "@uwf/workflow";
import { InputFileError } from "./errors/input-file-error.ts";
import { UsageError } from "./errors/usage-error.ts";

export interface ReadInputFileOptions {
  cwd: string;
  /** How the message names the file: as it was given (`reply.md`, `--output reply.md`). */
  label: string;
}

/**
 * The text of a file named on the command line; `-` reads stdin to its end. A missing file, a
 * folder or a device is an InputFileError naming it (a pipe, as `<(…)` gives, is read); a file or
 * stream over MAX_INPUT_FILE_BYTES a UsageError, as an `--inputs` file over it is; any other failure
 * (permissions, I/O) reaches the error boundary as it is.
 */
export async function readInputFile(file: string, options: ReadInputFileOptions): Promise<string> {
  const path = file === "-" ? "-" : resolve(options.cwd, file);
  const read =
    file === "-" ? await readStdin() : safeReadBoundedFile(path, { maxBytes: MAX_INPUT_FILE_BYTES, allowPipe: true });
  if (read.success) return read.value;
  if (read.reason === "unreadable") throw read.cause;
  // Too much of it is a usage error, as for `--inputs`: the same limit, the same exit code (2).
  if (read.reason === "too-large") throw new UsageError(`${options.label}: ${read.problem}`, { file: path });
  throw new InputFileError(options.label, path, read.problem);
}

/** Stdin (`-`) to its end, within MAX_INPUT_FILE_BYTES, for every command that reads it. */
export function readStdin(): Promise<ReadBoundedFileResult> {
  return readBoundedStream(Bun.stdin.stream(), MAX_INPUT_FILE_BYTES);
}
