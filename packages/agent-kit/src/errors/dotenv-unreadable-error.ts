import { UwfError } from "@uwf/protocol";

/**
 * The home's `.env` exists but cannot be read (no permission, a folder in its place). Taken for
 * "no file", it would let the next write replace the user's keys, so it is an error naming the file.
 */
export class DotenvUnreadableError extends UwfError<"dotenv-unreadable"> {
  static override readonly code = "dotenv-unreadable" as const;
  static override readonly name = "DotenvUnreadableError";

  constructor(file: string, reason: string, cause: unknown) {
    super(`cannot read ${file}: ${reason}`, { data: { file }, cause });
  }
}
