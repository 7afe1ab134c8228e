import { UwfError } from "@uwf/protocol";

/** A file tool was given a path that is (or resolves, through a symlink, to) a place outside the thread's cwd. */
export class PathOutsideWorkspaceError extends UwfError<"path-outside-workspace"> {
  static override readonly code = "path-outside-workspace" as const;
  static override readonly name = "PathOutsideWorkspaceError";

  constructor(path: string, workspace: string, reason = "is outside") {
    super(`refused: ${path} ${reason} the working directory ${workspace}`, {
      data: { path, workspace },
    });
  }
}
