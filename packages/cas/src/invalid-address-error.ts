import { UwfError } from "@uwf/protocol";

/** A string that is not a node address; raised before any path is built from it. */
export class InvalidAddressError extends UwfError {
  static readonly code = "invalid-address" as const;

  constructor(input: string) {
    const shown = input.length > 40 ? `${input.slice(0, 40)}…` : input;
    super(InvalidAddressError.code, `"${shown}" is not a node address (13 characters of 0-9 A-Z without I, L, O, U)`, {
      data: { input: shown },
    });
    this.name = "InvalidAddressError";
  }
}
