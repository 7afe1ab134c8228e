import { stat } from "node:fs/promises";
import { type AgentTool, ok, optionalBooleanInput, optionalStringInput, ToolInputError } from "./agent-tool.ts";
import { realHome, resolveToolPath } from "./resolve-tool-path.ts";
import { SKIPPED_DIRECTORIES, walkWorkspace } from "./walk-workspace.ts";

/** Entries one listing shows at most. */
export const LIST_FILES_LIMIT = 1_000;

export const listFilesTool: AgentTool = {
  name: "list_files",
  description: `List the files and directories at a path in the working directory (directories end with /). With recursive, everything below it, skipping ${[...SKIPPED_DIRECTORIES].join(", ")}.`,
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "Directory relative to the working directory (default: .)" },
      recursive: { type: "boolean", description: "List everything below the directory (default false)" },
    },
  },
  async run(input, context) {
    const path = optionalStringInput(input, "path") ?? ".";
    const recursive = optionalBooleanInput(input, "recursive") ?? false;
    const real = await resolveToolPath(context, path);
    const stats = await stat(real).catch(() => null);
    if (stats === null) throw new ToolInputError(`${path} does not exist`);
    if (!stats.isDirectory()) throw new ToolInputError(`${path} is a file, not a directory`);
    const lines: string[] = [];
    for await (const entry of walkWorkspace(context.workspace, real, recursive, [await realHome(context.env.home)])) {
      if (lines.length >= LIST_FILES_LIMIT) {
        lines.push(`[cut at ${LIST_FILES_LIMIT} entries; list a subdirectory]`);
        break;
      }
      lines.push(entry.kind === "directory" ? `${entry.relativePath}/` : entry.relativePath);
    }
    return ok(lines.length === 0 ? "(empty directory)" : lines.join("\n"));
  },
};
