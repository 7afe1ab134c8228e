import { UwfError } from "@uwf/protocol";

/**
 * Another process has held the ref store's write lock for longer than the busy timeout (SQLite's
 * "database is locked"). Nothing was changed by the call that waited: retry later (exit 75).
 */
export class RefStoreBusyError extends UwfError<"ref-store-busy"> {
  static override readonly code = "ref-store-busy" as const;
  static override readonly name = "RefStoreBusyError";

  constructor(path: string, detail: string, cause?: unknown) {
    super(`the ref store ${path} is busy: another process has held its write lock too long (${detail}); retry later`, {
      data: { path, detail },
      cause,
    });
  }
}
