import { UwfError } from "@uwf/protocol";

/** A value that has no canonical JSON form (a cycle, a bigint, a function, NaN...), reported with where it sits. */
export class InvalidJsonValueError extends UwfError {
  constructor(path: string, reason: string) {
    super("invalid-json-value", `cannot encode ${path} as canonical JSON: ${reason}`, { data: { path, reason } });
    this.name = "InvalidJsonValueError";
  }
}
