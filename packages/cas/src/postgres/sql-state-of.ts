/** The server's SQLSTATE in a PostgreSQL client's error (Bun puts it in `errno`, others in `code`); "" when it has none. */
export function sqlStateOf(error: unknown): string {
  if (typeof error !== "object" || error === null) return "";
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  if (typeof errno === "string") return errno;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : "";
}
