import type { AgentTool, ToolContext, ToolResult } from "./agent-tool.ts";
import { editFileTool } from "./edit-file-tool.ts";
import { listFilesTool } from "./list-files-tool.ts";
import { readFileTool } from "./read-file-tool.ts";
import { runCommandTool } from "./run-command-tool.ts";
import { searchFilesTool } from "./search-files-tool.ts";
import { writeFileTool } from "./write-file-tool.ts";

/** The built-in agent's tools, in the order the model sees them. */
export const AGENT_TOOLS: readonly AgentTool[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listFilesTool,
  searchFilesTool,
  runCommandTool,
];

/** The `tools` parameter of a Messages API request. */
export function toolDefinitions(): Array<{
  name: string;
  description: string;
  input_schema: AgentTool["inputSchema"];
}> {
  return AGENT_TOOLS.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  }));
}

/** Runs one tool call. Never throws: an unknown tool, bad input or a failure is an `is_error` result for the model. */
export async function runAgentTool(name: string, input: unknown, context: ToolContext): Promise<ToolResult> {
  const tool = AGENT_TOOLS.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    return {
      content: `unknown tool "${name}"; the tools are ${AGENT_TOOLS.map((t) => t.name).join(", ")}`,
      isError: true,
    };
  }
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return { content: "the tool input must be a JSON object", isError: true };
  }
  try {
    return await tool.run(input as Record<string, unknown>, context);
  } catch (error) {
    return { content: error instanceof Error ? error.message : String(error), isError: true };
  }
}
