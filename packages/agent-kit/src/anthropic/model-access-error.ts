import { UwfError } from "@uwf/protocol";

/** The configured model could not be reached with the configured key (`uwf setup`'s check). */
export class ModelAccessError extends UwfError {
  constructor(model: string, problem: string) {
    super("model-access-failed", `cannot use model "${model}": ${problem}`, { data: { model, problem } });
    this.name = "ModelAccessError";
  }
}
