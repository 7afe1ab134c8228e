import { UwfError } from "@uwf/protocol";

/** A stored node of another kind than the one its reader expected (a workflow address that names a step...). */
export class UnexpectedNodeKindError extends UwfError<"unexpected-node-kind"> {
  static override readonly code = "unexpected-node-kind" as const;
  static override readonly name = "UnexpectedNodeKindError";

  constructor(address: string, expected: string, actual: string | null) {
    super(`node ${address} is a ${actual ?? "plain JSON"} node, not ${expected}`, {
      data: { address, expected, actual },
    });
  }
}
