/** Whether a store URL names a PostgreSQL server (`postgres://` or `postgresql://`). */
export function isPostgresStoreUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}
