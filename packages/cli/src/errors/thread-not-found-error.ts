import { UwfError } from "@uwf/protocol";

export class ThreadNotFoundError extends UwfError {
  constructor(reference: string, candidates: string[] = []) {
    const message =
      candidates.length > 1
        ? `thread prefix "${reference}" is ambiguous: ${candidates.join(", ")}`
        : `no thread "${reference}" (see \`uwf list\`)`;
    super(candidates.length > 1 ? "ambiguous-thread" : "thread-not-found", message, {
      data: { thread: reference, candidates },
    });
    this.name = "ThreadNotFoundError";
  }
}
