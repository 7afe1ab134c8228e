import { UwfError } from "@uwf/protocol";

/** The thread's working directory, where the agent would run, does not exist. */
export class NoWorkingDirectoryError extends UwfError<"no-working-directory"> {
  static override readonly code = "no-working-directory" as const;
  static override readonly name = "NoWorkingDirectoryError";

  constructor(cwd: string) {
    super(`the working directory ${cwd} does not exist`, { data: { cwd } });
  }
}
