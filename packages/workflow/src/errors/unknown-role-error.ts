import { UwfError } from "@uwf/protocol";

/** A role name that the workflow does not define. */
export class UnknownRoleError extends UwfError {
  static readonly code = "unknown-role" as const;

  constructor(workflowName: string, roleName: string) {
    super(UnknownRoleError.code, `workflow ${workflowName} has no role "${roleName}"`, {
      data: { workflow: workflowName, role: roleName },
    });
    this.name = "UnknownRoleError";
  }
}
