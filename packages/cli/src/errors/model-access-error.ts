import { UwfError } from "@uwf/protocol";

/** The configured model could not be reached with the configured key (`uwf setup`'s check). */
export class ModelAccessError extends UwfError<"model-access-failed"> {
  static override readonly code = "model-access-failed" as const;
  static override readonly name = "ModelAccessError";

  constructor(model: string, problem: string) {
    super(`cannot use model "${model}": ${problem}`, { data: { model, problem } });
  }
}
