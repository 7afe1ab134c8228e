import { stat } from "node:fs/promises";
import {
  type AgentTool,
  FILE_PATH_PROPERTY,
  ok,
  optionalNumberInput,
  stringInput,
  ToolInputError,
} from "./agent-tool.ts";
import { openFileToRead } from "./open-tool-file.ts";
import { realHome, resolveToolPath } from "./resolve-tool-path.ts";
import { workspaceRelative } from "./resolve-workspace-path.ts";

/** Characters of a file one call returns at most; `offset` and `limit` read the rest. */
export const READ_FILE_LIMIT = 100_000;

export const readFileTool: AgentTool = {
  name: "read_file",
  description:
    "Read a text file in the working directory. Optionally from line `offset` (1-based) for `limit` lines. Long files are cut; read them in parts.",
  inputSchema: {
    type: "object",
    properties: {
      path: FILE_PATH_PROPERTY,
      offset: { type: "integer", description: "First line to read, 1-based (default 1)" },
      limit: { type: "integer", description: "Number of lines to read (default: all)" },
    },
    required: ["path"],
  },
  async run(input, context) {
    const path = stringInput(input, "path");
    const real = await resolveToolPath(context, path);
    const stats = await stat(real).catch(() => null);
    if (stats === null) throw new ToolInputError(`${path} does not exist`);
    if (stats.isDirectory()) throw new ToolInputError(`${path} is a directory; use list_files`);
    const handle = await openFileToRead(real, path, await realHome(context.env.home));
    const bytes = await handle.readFile().finally(() => handle.close());
    if (bytes.subarray(0, 8192).includes(0)) throw new ToolInputError(`${path} is a binary file`);
    let text = bytes.toString("utf8");
    const offset = optionalNumberInput(input, "offset");
    const limit = optionalNumberInput(input, "limit");
    if (offset !== undefined || limit !== undefined) {
      const lines = text.split("\n");
      const first = Math.max(1, Math.floor(offset ?? 1));
      text = lines.slice(first - 1, limit === undefined ? undefined : first - 1 + Math.floor(limit)).join("\n");
    }
    if (text.length > READ_FILE_LIMIT) {
      const shown = text.slice(0, READ_FILE_LIMIT);
      const lineCount = shown.split("\n").length;
      return ok(
        `${shown}\n\n[cut: ${workspaceRelative(context.workspace, real)} has ${text.length} characters; shown up to line ${lineCount}; use offset and limit to read more]`,
      );
    }
    return ok(text);
  },
};
