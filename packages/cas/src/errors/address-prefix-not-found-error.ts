import { UwfError } from "@uwf/protocol";

/** A short address that no stored node starts with. */
export class AddressPrefixNotFoundError extends UwfError {
  static readonly code = "address-prefix-not-found" as const;

  /** `named` says what was looked for, for callers that also tried other kinds of names. */
  constructor(prefix: string, named = "node address") {
    super(AddressPrefixNotFoundError.code, `no ${named} starts with ${prefix}`, { data: { prefix } });
    this.name = "AddressPrefixNotFoundError";
  }
}
