import type { AgentTool } from "./agent-tool.ts";
import { AGENT_TOOLS } from "./agent-tools.ts";

/** The tools one run of a built-in agent offers its model, and how to let go of what they hold. */
export interface RunTools {
  tools: readonly AgentTool[];
  /** Stops whatever the tools started for this run; safe to call more than once. */
  close(): Promise<void>;
}

/** The built-in file and command tools. (Issue 33: the agent's `mcpServers` add theirs here.) */
export async function openRunTools(): Promise<RunTools> {
  return { tools: AGENT_TOOLS, close: async () => {} };
}
