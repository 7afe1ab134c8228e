import type { McpServers } from "@uwf/protocol";
import { McpServerFailedError } from "../errors/mcp-server-failed-error.ts";
import type { AgentTool, ToolContext } from "../tools/agent-tool.ts";
import { collectSecretValues, redactSecrets } from "../tools/redact-secrets.ts";
import { variablesForExpansion } from "./expand-variables.ts";
import { type OpenedMcpServer, openMcpServer } from "./open-mcp-server.ts";

export interface OpenMcpServersOptions {
  servers: McpServers;
  context: ToolContext;
  note: (line: string) => void;
  /** Told each stdio server's pid (its process group's id) as it starts: for tests and diagnostics. */
  onSpawn?: (server: string, pid: number) => void;
}

export type OpenedMcpServers =
  | { success: true; value: { tools: AgentTool[]; close: () => Promise<void> } }
  | { success: false; error: string };

/**
 * Starts every server of `servers` at once and gathers their tools, in the config's order. When one
 * fails, the others are stopped and the error is one line naming it: `MCP server "fs": could not …`.
 * This module is what loads the MCP SDK: `openRunTools` imports it only for an agent with servers.
 */
export async function openMcpServers(options: OpenMcpServersOptions): Promise<OpenedMcpServers> {
  const variables = variablesForExpansion(options.context.env.home);
  const entries = Object.entries(options.servers);
  const opened = await Promise.allSettled(
    entries.map(([name, spec]) =>
      openMcpServer({
        name,
        spec,
        context: options.context,
        variables,
        note: options.note,
        onSpawn: (pid) => options.onSpawn?.(name, pid),
      }),
    ),
  );
  const servers = opened.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  const closeAll = async () => {
    await Promise.all(servers.map((server: OpenedMcpServer) => server.close()));
  };
  const failed = opened.findIndex((outcome) => outcome.status === "rejected");
  if (failed >= 0) {
    await closeAll();
    const reason: unknown = (opened[failed] as PromiseRejectedResult).reason;
    // Anything but a server's failure is a fault of uwf's, not of the agent's configuration.
    if (!(reason instanceof McpServerFailedError)) throw reason;
    // The message may quote the server's stderr, and it is stored with the run: no secret in it either.
    const secrets = await collectSecretValues(options.context);
    return { success: false, error: redactSecrets(reason.message.split("\n")[0] ?? "", secrets) };
  }
  const tools = servers.flatMap((server) => server.tools);
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      await closeAll();
      return { success: false, error: `two MCP servers offer a tool named "${tool.name}": rename a server` };
    }
    seen.add(tool.name);
  }
  let closing: Promise<void> | null = null;
  return { success: true, value: { tools, close: () => (closing ??= closeAll()) } };
}
