/**
 * The most bytes uwf reads from a file or stream a user names (a prompt, a reply, start inputs, a
 * node, a scenario, stdin): far over any real one, and a bound on what a mistake such as
 * `--inputs /dev/zero` or a runaway pipe can make uwf hold in memory.
 */
export const MAX_INPUT_FILE_BYTES = 16 * 1024 * 1024;

/** The most bytes of a home's config.yaml (and `.env`), which every command may read. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** `1048576` → `1 MiB`, for messages that name a limit. */
export function describeByteLimit(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
