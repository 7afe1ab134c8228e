import { UwfError } from "@uwf/protocol";

/** A scenario file of the scripted agent that cannot be read or is malformed; the message names the file and the entry. */
export class InvalidScenarioError extends UwfError {
  static readonly code = "invalid-scenario" as const;

  constructor(file: string, message: string) {
    super(InvalidScenarioError.code, message, { data: { file } });
    this.name = "InvalidScenarioError";
  }
}
