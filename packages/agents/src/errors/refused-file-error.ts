import { UwfError } from "@uwf/protocol";

/**
 * A file tool was given a path inside the working directory that it must not
 * use all the same: inside the uwf home, not a regular file, or hard-linked.
 */
export class RefusedFileError extends UwfError {
  static readonly code = "file-refused" as const;

  constructor(path: string, reason: string) {
    super(RefusedFileError.code, `refused: ${path} ${reason}`, { data: { path, reason } });
    this.name = "RefusedFileError";
  }
}
