import { UwfError } from "@uwf/protocol";

/** A thread record, update, registry entry or lease request that the ref store refuses to persist. */
export class InvalidRecordError extends UwfError<"invalid-record"> {
  static override readonly code = "invalid-record" as const;
  static override readonly name = "InvalidRecordError";

  constructor(kind: string, problems: readonly string[]) {
    super(`invalid ${kind}: ${problems.join("; ")}`, {
      data: { kind, problems: [...problems] },
    });
  }
}
