import { UwfError } from "@uwf/protocol";

/** A node address given as a workflow that names another kind of node. */
export class NotAWorkflowError extends UwfError {
  static readonly code = "not-a-workflow" as const;

  constructor(address: string) {
    super(NotAWorkflowError.code, `node ${address} is not a workflow`, { data: { address } });
    this.name = "NotAWorkflowError";
  }
}
