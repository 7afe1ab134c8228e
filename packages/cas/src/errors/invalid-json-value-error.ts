import { UwfError } from "@uwf/protocol";

/** A value that has no canonical JSON form (a cycle, a bigint, a function, NaN...), reported with where it sits. */
export class InvalidJsonValueError extends UwfError {
  static readonly code = "invalid-json-value" as const;

  constructor(path: string, reason: string) {
    super(InvalidJsonValueError.code, `cannot encode ${path} as canonical JSON: ${reason}`, { data: { path, reason } });
    this.name = "InvalidJsonValueError";
  }
}
