import { UwfError } from "@uwf/protocol";

/**
 * A file tool was given a path inside the working directory that it must not
 * use all the same: inside the uwf home, not a regular file, or hard-linked.
 */
export class RefusedFileError extends UwfError<"file-refused"> {
  static override readonly code = "file-refused" as const;
  static override readonly name = "RefusedFileError";

  constructor(path: string, reason: string) {
    super(`refused: ${path} ${reason}`, { data: { path, reason } });
  }
}
