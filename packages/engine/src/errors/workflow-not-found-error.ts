import { UwfError } from "@uwf/protocol";

/**
 * A workflow reference that names nothing: a path (it has a `/` or a YAML extension) to no file,
 * or a name that is no registered workflow, project file or stored workflow's address; `stored`: a
 * reference from a request (the web API, `uwf mcp --read-only`), which names no file outside the home.
 */
export class WorkflowNotFoundError extends UwfError<"workflow-not-found"> {
  static override readonly code = "workflow-not-found" as const;
  static override readonly name = "WorkflowNotFoundError";

  constructor(reference: string, where: { file: string } | { cwd: string } | { stored: true }) {
    super(
      "file" in where
        ? `workflow file ${JSON.stringify(reference)} does not exist`
        : "stored" in where
          ? `no workflow ${JSON.stringify(reference)}: not a registered name, a workflow address or a thread id (files are not read here)`
          : `no workflow ${JSON.stringify(reference)}: not a file, a registered name or a workflow address`,
      {
        data:
          "file" in where
            ? { file: where.file }
            : "stored" in where
              ? { workflow: reference, stored: true }
              : { workflow: reference, cwd: where.cwd },
      },
    );
  }
}
