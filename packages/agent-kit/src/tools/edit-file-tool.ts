import { type AgentTool, FILE_PATH_PROPERTY, ok, stringInput, ToolInputError } from "./agent-tool.ts";
import { openFileToWrite, replaceFileContent } from "./open-tool-file.ts";
import { realHome, resolveToolPath } from "./resolve-tool-path.ts";
import { workspaceRelative } from "./resolve-workspace-path.ts";

export const editFileTool: AgentTool = {
  name: "edit_file",
  description:
    "Replace one exact occurrence of `old_text` with `new_text` in a file. Fails when `old_text` is not found or occurs more than once: include enough surrounding lines to make it unique.",
  inputSchema: {
    type: "object",
    properties: {
      path: FILE_PATH_PROPERTY,
      old_text: { type: "string", description: "The exact text to replace (whitespace included)" },
      new_text: { type: "string", description: "The text to put in its place" },
    },
    required: ["path", "old_text", "new_text"],
  },
  async run(input, context) {
    const path = stringInput(input, "path");
    const oldText = stringInput(input, "old_text");
    const newText = stringInput(input, "new_text");
    if (oldText === "") throw new ToolInputError('"old_text" must not be empty; use write_file to create a file');
    const real = await resolveToolPath(context, path);
    const handle = await openFileToWrite(real, path, await realHome(context.env.home), "edit");
    try {
      const content = await handle.readFile("utf8");
      const occurrences = countOccurrences(content, oldText);
      if (occurrences === 0)
        throw new ToolInputError(`old_text was not found in ${path}; read the file and copy the text exactly`);
      if (occurrences > 1) {
        throw new ToolInputError(
          `old_text occurs ${occurrences} times in ${path}; include more surrounding text so it matches exactly once`,
        );
      }
      const index = content.indexOf(oldText);
      await replaceFileContent(handle, content.slice(0, index) + newText + content.slice(index + oldText.length));
    } finally {
      await handle.close();
    }
    return ok(`edited ${workspaceRelative(context.workspace, real)}: replaced 1 occurrence`);
  },
};

function countOccurrences(text: string, part: string): number {
  let count = 0;
  for (let index = text.indexOf(part); index >= 0; index = text.indexOf(part, index + part.length)) count++;
  return count;
}
