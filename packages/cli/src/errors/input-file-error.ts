import { UwfError } from "@uwf/protocol";

/** A file named on the command line (`uwf cas put FILE`, `uwf fork --output FILE`) is missing or not a file. */
export class InputFileError extends UwfError<"input-file-unreadable"> {
  static override readonly code = "input-file-unreadable" as const;
  static override readonly name = "InputFileError";

  constructor(flag: string, file: string, reason: string) {
    super(`${flag}: ${reason}`, { data: { file, reason } });
  }
}
