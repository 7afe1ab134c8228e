import { UwfError } from "@uwf/protocol";

/** A ref store whose schema a newer uwf wrote: this uwf cannot read it safely, so it changes nothing. */
export class StoreTooNewError extends UwfError {
  static readonly code = "store-too-new" as const;

  constructor(path: string, version: number, supported: number) {
    super(
      StoreTooNewError.code,
      `${path} has ref schema version ${version}, written by a newer uwf; this uwf knows up to ${supported}: upgrade uwf`,
      { data: { path, version, supported } },
    );
    this.name = "StoreTooNewError";
  }
}
