import { UwfError } from "@uwf/protocol";

/** A short address that no stored node starts with. */
export class AddressPrefixNotFoundError extends UwfError<"address-prefix-not-found"> {
  static override readonly code = "address-prefix-not-found" as const;
  static override readonly name = "AddressPrefixNotFoundError";

  /** `named` says what was looked for, for callers that also tried other kinds of names. */
  constructor(prefix: string, named = "node address") {
    super(`no ${named} starts with ${prefix}`, { data: { prefix } });
  }
}
