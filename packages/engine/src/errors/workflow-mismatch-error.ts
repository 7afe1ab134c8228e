import { type ErrorDataByCode, UwfError } from "@uwf/protocol";

/**
 * `uwf fork NODE --workflow W` where W cannot continue the chain from the node: a role the fork needs
 * (the node's, a suspended role, a pending join's) is not one of W's roles, or W's graph cannot route
 * from the node. Nothing was written.
 */
export class WorkflowMismatchError extends UwfError<"workflow-mismatch"> {
  static override readonly code = "workflow-mismatch" as const;
  static override readonly name = "WorkflowMismatchError";

  constructor(data: ErrorDataByCode["workflow-mismatch"]) {
    super(
      `cannot continue step ${data.step} (${data.node}) on workflow ${data.workflow} (${data.workflowAddress}): ${data.problem}; nothing was written`,
      { data },
    );
  }
}
