import { UwfError } from "@uwf/protocol";

/** A role name that the workflow does not define. */
export class UnknownRoleError extends UwfError<"unknown-role"> {
  static override readonly code = "unknown-role" as const;
  static override readonly name = "UnknownRoleError";

  constructor(workflowName: string, roleName: string) {
    super(`workflow ${workflowName} has no role "${roleName}"`, {
      data: { workflow: workflowName, role: roleName },
    });
  }
}
