import { mkdir, open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface WriteFileAtomicallyOptions {
  /**
   * The file's permission bits, set exactly (the umask does not widen or narrow them), such as
   * 0o600 for a file only the user may read. Without it the file is created 0o644 less the umask.
   */
  mode?: number;
}

/** Writes a whole file or nothing: a temp file beside it, flushed to disk, then renamed over it. */
export async function writeFileAtomically(
  file: string,
  text: string,
  options: WriteFileAtomicallyOptions = {},
): Promise<void> {
  const directory = dirname(file);
  await mkdir(directory, { recursive: true });
  const temporary = join(directory, `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const handle = await open(temporary, "w", options.mode ?? 0o644);
  try {
    // The rename keeps the temp file's mode, so the file never exists with wider permissions.
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
