import { UwfError } from "@uwf/protocol";

/** A file named on the command line (`uwf cas put FILE`, `uwf fork --output FILE`) is missing or not a file. */
export class InputFileError extends UwfError {
  static readonly code = "input-file-unreadable" as const;

  constructor(flag: string, file: string, reason: string) {
    super(InputFileError.code, `${flag}: ${reason}`, { data: { file, reason } });
    this.name = "InputFileError";
  }
}
