import type { Address } from "@uwf/protocol";
import { UwfError } from "@uwf/protocol";

/** A short address that more than one stored node starts with. */
export class AmbiguousAddressError extends UwfError<"ambiguous-address"> {
  static override readonly code = "ambiguous-address" as const;
  static override readonly name = "AmbiguousAddressError";

  /** `candidates` are the first of the addresses it starts, in address order; `more` says whether others were left out. */
  constructor(prefix: string, candidates: readonly Address[], more = false) {
    const listed = `${candidates.join(", ")}${more ? ", …" : ""}`;
    super(`address prefix ${prefix} is ambiguous: ${listed}; give more characters`, {
      data: { prefix, candidates: [...candidates], more },
    });
  }
}
