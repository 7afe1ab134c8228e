import { UwfError } from "@uwf/protocol";

/**
 * An MCP server of an agent that could not be used: its `env` or `headers` name a variable that is not
 * set, it could not be started, it exited or did not answer, or it could not list its tools. `field`
 * names the server's setting at fault (`env.TOKEN`, `headers.Authorization`), null when it is the
 * server itself. One that fails as the run starts stops the run, whose step fails as `agent-failed`
 * with this message; a request sent to one that has exited (ProcessGroupTransport.send) fails with it.
 */
export class McpServerFailedError extends UwfError<"mcp-server-failed"> {
  static override readonly code = "mcp-server-failed" as const;
  static override readonly name = "McpServerFailedError";

  /** `problem` is one line saying what went wrong (and, for a setting, which): `header Authorization: ${TOKEN} is not set`. */
  constructor(server: string, field: string | null, problem: string) {
    super(`MCP server "${server}": ${problem}`, { data: { server, field, problem } });
  }
}
