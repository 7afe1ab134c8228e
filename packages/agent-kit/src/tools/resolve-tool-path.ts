import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { isPathInside } from "@uwf/workflow";
import { RefusedFileError } from "../errors/refused-file-error.ts";
import type { ToolContext } from "./agent-tool.ts";
import { resolveWorkspacePath } from "./resolve-workspace-path.ts";

/** The uwf home as a real path (as written when it does not exist), to compare with resolved tool paths. */
export async function realHome(home: string): Promise<string> {
  return realpath(home).catch(() => resolve(home));
}

/**
 * The real path a file tool may use for `path`: `resolveWorkspacePath`, and
 * never the uwf home or anything in it, wherever the home is (a project's
 * `.uwf/` often sits inside the thread's cwd). The home holds the store and
 * `.env` with the API keys. Throws `PathOutsideWorkspaceError` or `RefusedFileError`.
 */
export async function resolveToolPath(context: Pick<ToolContext, "workspace" | "env">, path: string): Promise<string> {
  const real = await resolveWorkspacePath(context.workspace, path);
  const home = await realHome(context.env.home);
  if (isPathInside(home, real)) {
    throw new RefusedFileError(
      path,
      "is in the uwf home, which holds the store and the API keys; no tool reads or writes it",
    );
  }
  return real;
}
