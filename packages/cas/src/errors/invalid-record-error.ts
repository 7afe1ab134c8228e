import { UwfError } from "@uwf/protocol";

/** A thread record, update, registry entry or lease request that the ref store refuses to persist. */
export class InvalidRecordError extends UwfError {
  static readonly code = "invalid-record" as const;

  constructor(kind: string, problems: readonly string[]) {
    super(InvalidRecordError.code, `invalid ${kind}: ${problems.join("; ")}`, {
      data: { kind, problems: [...problems] },
    });
    this.name = "InvalidRecordError";
  }
}
