import { isAbsolute, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { type McpServerSpec, messageOf } from "@uwf/protocol";
import { McpServerFailedError } from "../errors/mcp-server-failed-error.ts";
import { buildChildEnvironment } from "../process/child-environment.ts";
import { formatSeconds } from "../process/format-seconds.ts";
import { DEFAULT_KILL_GRACE_MS } from "../process/run-process-group.ts";
import { type AgentTool, TOOL_TIME_LIMIT_REASON, type ToolContext } from "../tools/agent-tool.ts";
import { DEFAULT_TOOL_TIME_LIMIT_MS } from "../tools/agent-tools.ts";
import { expandVariables } from "./expand-variables.ts";
import { formatMcpToolResult } from "./format-mcp-tool-result.ts";
import { MAX_SERVER_NAME_LENGTH, mcpToolName, SERVER_NAME_TOO_LONG, toolNameProblem } from "./mcp-tool-name.ts";
import { ProcessGroupTransport } from "./process-group-transport.ts";

/** How long a server may take to start and list its tools, unless the step's deadline comes first. */
export const MCP_START_TIME_LIMIT_MS = 30_000;

/** How long a failed connect waits to see whether the stdio server has exited, to say how. */
const EXIT_WAIT_MS = 1_000;

export interface OpenMcpServerOptions {
  name: string;
  spec: McpServerSpec;
  context: ToolContext;
  /** `${NAME}` in headers and `env` values: see `variablesForExpansion`. */
  variables: Readonly<Record<string, string>>;
  note: (line: string) => void;
  /** Told the stdio server's pid (its process group's id) once it has started. */
  onSpawn?: (pid: number) => void;
}

export interface OpenedMcpServer {
  /** The server's tools as `SERVER__TOOL`: those it may offer, then those allow/deny refuse (with a `refusal`). */
  tools: AgentTool[];
  close(): Promise<void>;
}

/**
 * Starts one MCP server (stdio: a subprocess in its own process group, in the thread's cwd unless
 * `cwd` says otherwise, with uwf's environment less the provider keys and the store's secrets, plus
 * its `env`; HTTP: a client of its URL with its `headers`), lists its tools and makes each an
 * `AgentTool`. Throws McpServerFailedError (one line naming the server), having stopped the server.
 */
export async function openMcpServer(options: OpenMcpServerOptions): Promise<OpenedMcpServer> {
  const { spec, context } = options;
  const server = options.name;
  if (server.length > MAX_SERVER_NAME_LENGTH) throw new McpServerFailedError(server, null, SERVER_NAME_TOO_LONG);
  const client = new Client({ name: "uwf", version: "1" }, { capabilities: {} });
  let stdio: ProcessGroupTransport | null = null;
  let http: StreamableHTTPClientTransport | null = null;
  const startLimit = AbortSignal.timeout(MCP_START_TIME_LIMIT_MS);
  const signal = AbortSignal.any([context.signal, startLimit]);
  const close = async () => {
    // The server keeps running (uwf did not start it); the session this step opened ends with it.
    if (http?.sessionId !== undefined) await http.terminateSession().catch(() => {});
    await client.close().catch(() => {});
    await stdio?.close();
  };
  try {
    if ("command" in spec) {
      const env = expandVariables(spec.env ?? {}, options.variables);
      if (!env.success) throw new McpServerFailedError(server, `env.${env.key}`, `env ${env.error}`);
      stdio = new ProcessGroupTransport({
        server,
        command: spec.command,
        args: spec.args,
        cwd: spec.cwd === undefined ? context.workspace : resolveCwd(context.workspace, spec.cwd),
        // As run_command's: no keys or store variables unless the server's `env` sets them.
        env: buildChildEnvironment({
          keyVariables: context.keyVariables ?? [],
          secretValues: context.secretValues ?? [],
          remove: ["UWF_HOME"],
          add: env.value,
        }),
        killGraceMs: context.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
        ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
      });
      // connect() starts the transport: the server process.
      const transport = stdio;
      await connect(server, client, transport, signal, async () => {
        // A server that exited says why on stderr, not in the SDK's "Connection closed" or a write's EPIPE.
        // Stopped or out of time: say that at once (describeStartFailure), not after a wait.
        const exit = signal.aborted ? transport.exitDescription() : await transport.exitedWithin(EXIT_WAIT_MS);
        return exit === null ? null : `it exited (${exit}) before it answered${stderrPart(transport.lastStderrLine())}`;
      });
    } else {
      const headers = expandVariables(spec.headers ?? {}, options.variables);
      if (!headers.success) throw new McpServerFailedError(server, `headers.${headers.key}`, `header ${headers.error}`);
      http = new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: headers.value } });
      await connect(server, client, http, signal, async () => null, "could not connect: ");
    }
    const listed = await listTools(server, client, signal);
    const timeLimitMs = spec.timeout === undefined ? DEFAULT_TOOL_TIME_LIMIT_MS : spec.timeout * 1000;
    const tools: AgentTool[] = [];
    for (const tool of listed) {
      const name = mcpToolName(options.name, tool.name);
      const problem = toolNameProblem(name);
      if (problem !== null) {
        options.note(`MCP server "${options.name}": tool ${problem}: not offered`);
        continue;
      }
      tools.push(toAgentTool(client, options.name, name, tool, timeLimitMs, refusalOf(options.name, tool.name, spec)));
    }
    for (const listedName of [...(spec.allow ?? []), ...(spec.deny ?? [])]) {
      if (!listed.some((tool) => tool.name === listedName)) {
        options.note(`MCP server "${options.name}" has no tool "${listedName}" (named in its allow or deny list)`);
      }
    }
    const offered = tools.filter((tool) => tool.refusal === undefined).length;
    options.note(`MCP server "${options.name}": ${offered} of ${listed.length} tools offered`);
    return { tools, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Why allow/deny refuse `tool`, or undefined when the model may call it. `deny` beats `allow`. */
function refusalOf(server: string, tool: string, spec: McpServerSpec): string | undefined {
  if (spec.deny?.includes(tool)) return `the deny list of MCP server "${server}" names it`;
  if (spec.allow !== undefined && !spec.allow.includes(tool)) {
    return `it is not in the allow list of MCP server "${server}"`;
  }
  return undefined;
}

function toAgentTool(
  client: Client,
  server: string,
  name: string,
  tool: Tool,
  timeLimitMs: number,
  refusal: string | undefined,
): AgentTool {
  const { $schema: _ignored, ...schema } = tool.inputSchema as Record<string, unknown>;
  const description = (tool.description ?? tool.title ?? "").trim();
  return {
    name,
    description: description === "" ? `The tool ${tool.name} of the MCP server ${server}.` : description,
    inputSchema: { ...schema, type: "object", properties: (schema.properties as Record<string, unknown>) ?? {} },
    ...(refusal === undefined ? {} : { refusal }),
    timeLimitMs: () => timeLimitMs,
    run: async (input, context) => {
      // runAgentTool keeps the deadline; the SDK's own request timeout is set past it, so the signal
      // (which also tells the server the call is cancelled) is what stops a long call.
      try {
        const result = await client.callTool({ name: tool.name, arguments: input }, undefined, {
          signal: context.signal,
          timeout: timeLimitMs + 60_000,
        });
        return formatMcpToolResult(result);
      } catch (error) {
        if (!context.signal.aborted) throw error;
        // The SDK has told the server the call is cancelled; the model gets the reason, in run_command's words.
        const why =
          context.signal.reason === TOOL_TIME_LIMIT_REASON
            ? `it did not finish within ${formatSeconds(timeLimitMs)}`
            : "the step was stopped";
        return { content: `${name} was stopped: ${why}`, isError: true };
      }
    },
  };
}

async function connect(
  server: string,
  client: Client,
  transport: Parameters<Client["connect"]>[0],
  signal: AbortSignal,
  explainFailure: () => Promise<string | null>,
  prefix = "",
): Promise<void> {
  try {
    await client.connect(transport, { signal, timeout: MCP_START_TIME_LIMIT_MS });
  } catch (error) {
    const explained = await explainFailure();
    if (explained !== null) throw new McpServerFailedError(server, null, explained);
    // The transport's own failure (the command could not be started) already says what and names the server.
    if (error instanceof McpServerFailedError) throw error;
    throw new McpServerFailedError(server, null, `${prefix}${describeStartFailure(error, signal)}`);
  }
}

function stderrPart(line: string): string {
  return line === "" ? "" : `: ${line}`;
}

async function listTools(server: string, client: Client, signal: AbortSignal): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  try {
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
        signal,
        timeout: MCP_START_TIME_LIMIT_MS,
      });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  } catch (error) {
    throw new McpServerFailedError(server, null, `could not list its tools: ${describeStartFailure(error, signal)}`);
  }
  return tools;
}

function describeStartFailure(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) {
    return signal.reason instanceof DOMException && signal.reason.name === "TimeoutError"
      ? `it did not answer within ${formatSeconds(MCP_START_TIME_LIMIT_MS)}`
      : "the step was stopped (or ran out of time) while it started";
  }
  return messageOf(error).replace(/\s+/g, " ").trim();
}

function resolveCwd(workspace: string, cwd: string): string {
  return isAbsolute(cwd) ? cwd : resolve(workspace, cwd);
}
