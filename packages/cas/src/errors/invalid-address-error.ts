import { UwfError } from "@uwf/protocol";

/** The start of an address, too short to name a node: 1 to 3 characters that could begin one. */
const TOO_SHORT = /^[0-9A-F][0-9A-HJKMNP-TV-Z]{0,2}$/i;

export interface InvalidAddressErrorOptions {
  /** Whether the input could also have been an address's first 4 or more characters (see parseAddressPrefix), as the message then says. */
  prefix?: boolean;
}

/** A string that is not a node address (or, where one is accepted, a prefix of one); raised before any path is built from it. */
export class InvalidAddressError extends UwfError<"invalid-address"> {
  static override readonly code = "invalid-address" as const;
  static override readonly name = "InvalidAddressError";

  constructor(input: string, options: InvalidAddressErrorOptions = {}) {
    const shown = input.length > 40 ? `${input.slice(0, 40)}…` : input;
    const message =
      options.prefix !== true
        ? `${JSON.stringify(shown)} is not a node address (13 characters of 0-9 A-Z without I, L, O, U)`
        : TOO_SHORT.test(input)
          ? `${JSON.stringify(shown)} is too short to name a node: give at least 4 characters of its address`
          : `${JSON.stringify(shown)} is not a node address or the start of one (4 to 13 characters of 0-9 A-Z without I, L, O, U, the first 0-F)`;
    super(message, { data: { input: shown } });
  }
}
