import { UwfError } from "@uwf/protocol";

/** A node address given as a workflow that names another kind of node. */
export class NotAWorkflowError extends UwfError<"not-a-workflow"> {
  static override readonly code = "not-a-workflow" as const;
  static override readonly name = "NotAWorkflowError";

  constructor(address: string) {
    super(`node ${address} is not a workflow`, { data: { address } });
  }
}
