/** Whether a node:fs error says the path (or a directory on it) does not exist. */
export function isMissingFileError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}
