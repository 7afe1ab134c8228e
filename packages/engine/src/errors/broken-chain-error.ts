import { UwfError } from "@uwf/protocol";

/** A thread's chain of steps that does not lead back to a start node: the store lost or mixed up nodes. */
export class BrokenChainError extends UwfError<"broken-chain"> {
  static override readonly code = "broken-chain" as const;
  static override readonly name = "BrokenChainError";

  constructor(head: string) {
    super(`the chain from ${head} does not reach a start node`, { data: { head } });
  }
}
