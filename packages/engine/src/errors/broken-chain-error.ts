import { UwfError } from "@uwf/protocol";

/** A thread's chain of steps that does not lead back to a start node: the store lost or mixed up nodes. */
export class BrokenChainError extends UwfError {
  static readonly code = "broken-chain" as const;

  constructor(head: string) {
    super(BrokenChainError.code, `the chain from ${head} does not reach a start node`, { data: { head } });
    this.name = "BrokenChainError";
  }
}
