import { UwfError } from "@uwf/protocol";

/**
 * Another process has held the ref store's write lock for longer than the busy timeout (SQLite's
 * "database is locked"). Nothing was changed by the call that waited: retry later (exit 75).
 */
export class RefStoreBusyError extends UwfError {
  static readonly code = "ref-store-busy" as const;

  constructor(path: string, detail: string, cause?: unknown) {
    super(
      RefStoreBusyError.code,
      `the ref store ${path} is busy: another process has held its write lock too long (${detail}); retry later`,
      { data: { path, detail }, cause },
    );
    this.name = "RefStoreBusyError";
  }
}
