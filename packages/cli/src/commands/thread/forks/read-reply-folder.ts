import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ReplacementReply } from "@uwf/engine";
import { MAX_INPUT_FILE_BYTES, safeReadBoundedFile } from "@uwf/workflow";
import { InputFileError } from "../../../errors/input-file-error.ts";

/**
 * The replies in a folder given to `fork --output DIR`, one per file: its regular files (a link to
 * one counts) sorted by name, dotfiles skipped. Each is named as the folder was given plus its name,
 * so an error points at the file. A folder with no such file is an InputFileError.
 */
export function readReplyFolder(folder: string, cwd: string): ReplacementReply[] {
  const path = resolve(cwd, folder);
  const names = readdirSync(path)
    .filter((name) => !name.startsWith("."))
    .sort();
  const replies = names
    .filter((name) => statSync(join(path, name), { throwIfNoEntry: false })?.isFile() === true)
    .map((name) => ({ file: join(folder, name), text: readReply(join(folder, name), join(path, name)) }));
  if (replies.length === 0) {
    throw new InputFileError(`--output ${folder}`, path, "the folder holds no reply file (dotfiles are skipped)");
  }
  return replies;
}

function readReply(label: string, path: string): string {
  const read = safeReadBoundedFile(path, { maxBytes: MAX_INPUT_FILE_BYTES });
  if (read.success) return read.value;
  if (read.reason === "unreadable") throw read.cause;
  throw new InputFileError(`--output ${label}`, path, read.problem);
}
