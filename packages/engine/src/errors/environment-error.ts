import { type SystemErrorData, UwfError } from "@uwf/protocol";

/** The error codes of the machine's refusals. */
export type EnvironmentErrorCode =
  | "no-space"
  | "read-only-file-system"
  | "permission-denied"
  | "io-error"
  | "too-many-open-files";

/** The system error codes uwf reports as a problem of the machine it runs on, each with its error code. */
const KINDS: Readonly<Record<string, { code: EnvironmentErrorCode; reason: string }>> = {
  ENOSPC: { code: "no-space", reason: "no space left on device" },
  EDQUOT: { code: "no-space", reason: "disk quota exceeded" },
  // The process's file-size limit (`ulimit -f`), met as a full disk is: SIGXFSZ is ignored, so the write fails.
  EFBIG: { code: "no-space", reason: "file too large for this process's file-size limit (ulimit -f)" },
  EROFS: { code: "read-only-file-system", reason: "read-only file system" },
  EACCES: { code: "permission-denied", reason: "permission denied" },
  EPERM: { code: "permission-denied", reason: "operation not permitted" },
  EIO: { code: "io-error", reason: "input/output error" },
  EMFILE: { code: "too-many-open-files", reason: "too many open files" },
  ENFILE: { code: "too-many-open-files", reason: "too many open files in the system" },
};

/** What a failed system call was doing, as the message says it. */
const VERBS: Readonly<Record<string, string>> = {
  read: "read",
  readdir: "read",
  scandir: "read",
  stat: "read",
  lstat: "read",
  access: "read",
  open: "open",
  posix_spawn: "run",
  spawn: "run",
  execve: "run",
};

/**
 * A file system refused uwf (a full disk, a read-only mount, missing permissions): one line naming
 * the file, never a stack trace. The error code says which (`no-space`, `read-only-file-system`,
 * `permission-denied`, `io-error`, `too-many-open-files`); `data` keeps the system's code and call.
 */
export class EnvironmentError extends UwfError<EnvironmentErrorCode> {
  static override readonly name = "EnvironmentError";

  constructor(code: EnvironmentErrorCode, message: string, data: SystemErrorData, cause: unknown) {
    super(message, { code, data, cause });
  }
}

/**
 * The EnvironmentError for a node:fs error with one of the codes above, or null for any other
 * error (a missing file is not one: where it is expected, the code that expects it says so).
 * `doing`, when given, starts the message: what could not be done because of it.
 */
export function asEnvironmentError(error: unknown, doing?: string): EnvironmentError | null {
  if (!(error instanceof Error)) return null;
  const { code, syscall, path } = error as NodeJS.ErrnoException;
  if (code === undefined) return null;
  const kind = KINDS[code];
  if (kind === undefined) return null;
  // node:child_process names the call `spawn COMMAND`.
  const call = syscall?.split(" ")[0];
  const verb = call === undefined ? "write" : (VERBS[call] ?? "write");
  const what = path === undefined ? `cannot ${verb}` : `cannot ${verb} ${path}`;
  const prefix = doing === undefined ? "" : `${doing}: `;
  return new EnvironmentError(
    kind.code,
    `${prefix}${what}: ${kind.reason} (${code})`,
    { path: path ?? null, systemCode: code, syscall: syscall ?? null },
    error,
  );
}
