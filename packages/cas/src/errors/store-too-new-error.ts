import { UwfError } from "@uwf/protocol";

/** A ref store whose schema a newer uwf wrote: this uwf cannot read it safely, so it changes nothing. */
export class StoreTooNewError extends UwfError<"store-too-new"> {
  static override readonly code = "store-too-new" as const;
  static override readonly name = "StoreTooNewError";

  constructor(path: string, version: number, supported: number) {
    super(
      `${path} has ref schema version ${version}, written by a newer uwf; this uwf knows up to ${supported}: upgrade uwf`,
      { data: { path, version, supported } },
    );
  }
}
