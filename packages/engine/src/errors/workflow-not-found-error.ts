import { UwfError } from "@uwf/protocol";

/**
 * A workflow reference that names nothing: a path (it has a `/` or a YAML extension) to no file,
 * or a name that is no registered workflow, project file or stored workflow's address.
 */
export class WorkflowNotFoundError extends UwfError<"workflow-not-found"> {
  static override readonly code = "workflow-not-found" as const;
  static override readonly name = "WorkflowNotFoundError";

  constructor(reference: string, where: { file: string } | { cwd: string }) {
    super(
      "file" in where
        ? `workflow file ${reference} does not exist`
        : `no workflow "${reference}": not a file, a registered name or a workflow address`,
      { data: "file" in where ? { file: where.file } : { workflow: reference, cwd: where.cwd } },
    );
  }
}
