import { UwfError } from "@uwf/protocol";

/** A scenario file of the scripted agent that cannot be read or is malformed; the message names the file and the entry. */
export class InvalidScenarioError extends UwfError<"invalid-scenario"> {
  static override readonly code = "invalid-scenario" as const;
  static override readonly name = "InvalidScenarioError";

  constructor(file: string, message: string) {
    super(message, { data: { file } });
  }
}
