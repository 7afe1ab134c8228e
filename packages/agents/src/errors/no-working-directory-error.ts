import { UwfError } from "@uwf/protocol";

/** The thread's working directory, where the agent would run, does not exist. */
export class NoWorkingDirectoryError extends UwfError {
  static readonly code = "no-working-directory" as const;

  constructor(cwd: string) {
    super(NoWorkingDirectoryError.code, `the working directory ${cwd} does not exist`, { data: { cwd } });
    this.name = "NoWorkingDirectoryError";
  }
}
