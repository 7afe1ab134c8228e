import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { type AgentTool, ok, stringInput } from "./agent-tool.ts";
import { resolveWorkspacePath, workspaceRelative } from "./resolve-workspace-path.ts";

export const writeFileTool: AgentTool = {
  name: "write_file",
  description:
    "Create or overwrite a file in the working directory with the given content. Missing parent directories are created.",
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "Path relative to the working directory" },
      content: { type: "string", description: "The whole new content of the file" },
    },
    required: ["path", "content"],
  },
  async run(input, context) {
    const path = stringInput(input, "path");
    const content = stringInput(input, "content");
    const real = await resolveWorkspacePath(context.workspace, path);
    await mkdir(dirname(real), { recursive: true });
    // The parents now exist: check again, so a directory made meanwhile cannot be a way out.
    const checked = await resolveWorkspacePath(context.workspace, path);
    await writeFile(checked, content);
    return ok(`wrote ${Buffer.byteLength(content)} bytes to ${workspaceRelative(context.workspace, checked)}`);
  },
};
