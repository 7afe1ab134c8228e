import { UwfError } from "@uwf/protocol";

/** A thread prefix that matches more than one thread: the caller must say which. */
export class AmbiguousThreadError extends UwfError {
  static readonly code = "ambiguous-thread" as const;

  constructor(reference: string, candidates: string[]) {
    super(AmbiguousThreadError.code, `thread prefix "${reference}" is ambiguous: ${candidates.join(", ")}`, {
      data: { thread: reference, candidates },
    });
    this.name = "AmbiguousThreadError";
  }
}
