import { ambiguousPrefixMessage, UwfError } from "@uwf/protocol";

/** A thread prefix that matches more than one thread: the caller must say which. */
export class AmbiguousThreadError extends UwfError<"ambiguous-thread"> {
  static override readonly code = "ambiguous-thread" as const;
  static override readonly name = "AmbiguousThreadError";

  constructor(reference: string, candidates: string[]) {
    super(ambiguousPrefixMessage("thread", reference, candidates), { data: { thread: reference, candidates } });
  }
}
