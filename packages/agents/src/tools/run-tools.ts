import type { McpServers } from "@uwf/protocol";
import type { AgentTool, ToolContext } from "./agent-tool.ts";
import { AGENT_TOOLS } from "./agent-tools.ts";

/** The tools one run of a built-in agent offers its model, and how to let go of what they hold. */
export interface RunTools {
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
}

/**
 * The built-in file and command tools, then the tools of the agent's MCP servers (issue 33: not yet).
 * A server that cannot be started is an error naming it; whatever was started is stopped first.
 */
export async function openRunTools(options: OpenRunToolsOptions): Promise<OpenedRunTools> {
  if (options.servers !== undefined && Object.keys(options.servers).length > 0) {
    return { success: false, error: "mcpServers are not supported yet" };
  }
  return { success: true, value: { tools: AGENT_TOOLS, close: async () => {} } };
}
