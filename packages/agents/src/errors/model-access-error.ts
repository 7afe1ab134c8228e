import { UwfError } from "@uwf/protocol";

/** The configured model could not be reached with the configured key (`uwf setup`'s check). */
export class ModelAccessError extends UwfError {
  static readonly code = "model-access-failed" as const;

  constructor(model: string, problem: string) {
    super(ModelAccessError.code, `cannot use model "${model}": ${problem}`, { data: { model, problem } });
    this.name = "ModelAccessError";
  }
}
