import { UwfError } from "@uwf/protocol";

/** A file tool was given a path that is (or resolves, through a symlink, to) a place outside the thread's cwd. */
export class PathOutsideWorkspaceError extends UwfError {
  static readonly code = "path-outside-workspace" as const;

  constructor(path: string, workspace: string, reason = "is outside") {
    super(PathOutsideWorkspaceError.code, `refused: ${path} ${reason} the working directory ${workspace}`, {
      data: { path, workspace },
    });
    this.name = "PathOutsideWorkspaceError";
  }
}
