import { constants, type Stats } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import { dotenvFilePath } from "../config/dotenv-file.ts";
import { RefusedFileError } from "../errors/refused-file-error.ts";
import { ToolInputError } from "./agent-tool.ts";

// Non-blocking, so opening a FIFO never waits for a writer (or a reader); no symlink in the last component.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOFOLLOW;
const EDIT_FLAGS = constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Opens a file a tool reads. `real` comes from `resolveToolPath`; `path` is what
 * the model asked for, for messages; `home` is the uwf home's real path. Refused:
 * anything but a regular file (a FIFO, a socket, a device: reading them can hang
 * or never end) and a hard link to the home's `.env`. The checks are made on the
 * opened file, so swapping the path meanwhile does not get round them.
 */
export async function openFileToRead(real: string, path: string, home: string): Promise<FileHandle> {
  return openChecked(real, path, home, READ_FLAGS, false);
}

/**
 * Opens a file a tool replaces (`create`: made when missing) or edits. Refused as
 * for reading, and a file with more than one hard link: writing it would change
 * the same file at its other names, which may be outside the working directory.
 */
export async function openFileToWrite(
  real: string,
  path: string,
  home: string,
  mode: "create" | "edit",
): Promise<FileHandle> {
  return openChecked(real, path, home, mode === "create" ? WRITE_FLAGS : EDIT_FLAGS, true);
}

/** Replaces the whole content of a file opened for writing. */
export async function replaceFileContent(handle: FileHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text, "utf8");
  await handle.truncate(0);
  for (let offset = 0; offset < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, offset);
    offset += bytesWritten;
  }
}

async function openChecked(
  real: string,
  path: string,
  home: string,
  flags: number,
  writing: boolean,
): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(real, flags, 0o666);
  } catch (error) {
    throw describeOpenError(error, path);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new RefusedFileError(path, `is ${describeKind(stats)}, not a regular file`);
    const keyFile = await stat(dotenvFilePath(home)).catch(() => null);
    if (keyFile !== null && keyFile.dev === stats.dev && keyFile.ino === stats.ino) {
      throw new RefusedFileError(path, "is a hard link to the uwf home's .env, which holds the API keys");
    }
    if (writing && stats.nlink > 1) {
      throw new RefusedFileError(
        path,
        `has ${stats.nlink} hard links: writing it would change the same file under its other names, which may be outside the working directory`,
      );
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function describeOpenError(error: unknown, path: string): Error {
  const code = (error as { code?: unknown } | null)?.code;
  // ENXIO: a FIFO without a reader or a socket, opened for writing.
  if (code === "ENXIO") return new RefusedFileError(path, "is a FIFO or a socket, not a regular file");
  if (code === "ELOOP") return new RefusedFileError(path, "became a symlink while it was opened");
  if (code === "ENOENT") return new ToolInputError(`${path} does not exist`);
  if (code === "EISDIR") return new ToolInputError(`${path} is a directory, not a file`);
  return error instanceof Error ? error : new Error(String(error));
}

function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "a special file";
}
