/** What both the Messages API and the Chat Completions API accept as a tool's name (the stricter of the two). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Between the server's name and the tool's: `fs__read_file`. */
export const MCP_TOOL_NAME_SEPARATOR = "__";

/** A longer server name leaves no room for a tool's: `SERVER__T` must fit 64 characters. */
export const MAX_SERVER_NAME_LENGTH = 61;
export const SERVER_NAME_TOO_LONG = `a server name has at most ${MAX_SERVER_NAME_LENGTH} characters: its tools are named SERVER__TOOL, at most 64`;

/** The name the model calls an MCP server's tool by: `SERVER__TOOL`. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}${MCP_TOOL_NAME_SEPARATOR}${tool}`;
}

/** Why the model cannot be offered `name`, or null when it can. */
export function toolNameProblem(name: string): string | null {
  if (name.length > 64) return `"${name}" is longer than the 64 characters a tool name may have`;
  if (!TOOL_NAME_PATTERN.test(name))
    return `"${name}" has characters a tool name may not have (letters, digits, _ and - only)`;
  return null;
}
