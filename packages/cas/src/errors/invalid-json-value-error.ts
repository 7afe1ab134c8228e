import { UwfError } from "@uwf/protocol";

/** A value that has no canonical JSON form (a cycle, a bigint, a function, NaN...), reported with where it sits. */
export class InvalidJsonValueError extends UwfError<"invalid-json-value"> {
  static override readonly code = "invalid-json-value" as const;
  static override readonly name = "InvalidJsonValueError";

  constructor(path: string, reason: string) {
    super(`cannot encode ${path} as canonical JSON: ${reason}`, { data: { path, reason } });
  }
}
