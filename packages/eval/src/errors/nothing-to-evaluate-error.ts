import { UwfError } from "@uwf/protocol";

/** `uwf eval` named no thread, family, filter or suite, or what it named holds no thread. */
export class NothingToEvaluateError extends UwfError<"nothing-to-evaluate"> {
  static override readonly code = "nothing-to-evaluate" as const;
  static override readonly name = "NothingToEvaluateError";

  constructor(message: string) {
    super(message, { data: {} });
  }
}
