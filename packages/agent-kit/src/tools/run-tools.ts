import type { McpServers } from "@uwf/protocol";
import type { AgentTool, ToolContext } from "./agent-tool.ts";
import { AGENT_TOOLS } from "./agent-tools.ts";

/** The tools one run of a built-in agent offers its model, and how to let go of what they hold. */
export interface RunTools {
  /** The built-in tools, then the MCP servers' (those `allow`/`deny` refuse carry a `refusal`: not offered). */
  tools: readonly AgentTool[];
  /** Stops whatever the tools started for this run (MCP servers); safe to call more than once. */
  close(): Promise<void>;
}

/** A problem is a one-line message naming the server. */
export type OpenedRunTools = { success: true; value: RunTools } | { success: false; error: string };

export interface OpenRunToolsOptions {
  /** The agent's `mcpServers`. */
  servers: McpServers | undefined;
  /** The run's tool context: its workspace, signal and deadline, key variables and secrets. */
  context: ToolContext;
  /** A line for the run's log. */
  note: (line: string) => void;
  /** Told each stdio MCP server's pid (its process group's id) as it starts. */
  onSpawn?: (server: string, pid: number) => void;
}

/**
 * The built-in file and command tools, then the tools of the agent's MCP servers as `SERVER__TOOL`,
 * each server started for this run and stopped by `close()`. A server that cannot be started or
 * cannot list its tools is an error naming it; whatever was started is stopped first. The MCP SDK is
 * loaded only here, and only for an agent with servers.
 */
export async function openRunTools(options: OpenRunToolsOptions): Promise<OpenedRunTools> {
  if (options.servers === undefined || Object.keys(options.servers).length === 0) {
    return { success: true, value: { tools: AGENT_TOOLS, close: async () => {} } };
  }
  const { openMcpServers } = await import("../mcp/open-mcp-servers.ts");
  const opened = await openMcpServers({
    servers: options.servers,
    context: options.context,
    note: options.note,
    ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
  });
  if (!opened.success) return opened;
  return { success: true, value: { tools: [...AGENT_TOOLS, ...opened.value.tools], close: opened.value.close } };
}
