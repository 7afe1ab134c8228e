import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { type AgentTool, FILE_PATH_PROPERTY, ok, stringInput } from "./agent-tool.ts";
import { openFileToWrite, replaceFileContent } from "./open-tool-file.ts";
import { realHome, resolveToolPath } from "./resolve-tool-path.ts";
import { workspaceRelative } from "./resolve-workspace-path.ts";

export const writeFileTool: AgentTool = {
  name: "write_file",
  description:
    "Create or overwrite a file in the working directory with the given content. Missing parent directories are created.",
  inputSchema: {
    type: "object",
    properties: {
      path: FILE_PATH_PROPERTY,
      content: { type: "string", description: "The whole new content of the file" },
    },
    required: ["path", "content"],
  },
  async run(input, context) {
    const path = stringInput(input, "path");
    const content = stringInput(input, "content");
    const real = await resolveToolPath(context, path);
    await mkdir(dirname(real), { recursive: true });
    // The parents now exist: check again, so a directory made meanwhile cannot be a way out.
    const checked = await resolveToolPath(context, path);
    const handle = await openFileToWrite(checked, path, await realHome(context.env.home), "create");
    await replaceFileContent(handle, content).finally(() => handle.close());
    return ok(`wrote ${Buffer.byteLength(content)} bytes to ${workspaceRelative(context.workspace, checked)}`);
  },
};
