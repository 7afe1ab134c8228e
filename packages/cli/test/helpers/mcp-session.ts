import { afterEach, expect } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { errorResultSchema } from "@uwf/protocol";
import { UWF_COMMAND } from "./run-process.ts";
import type { TempHome } from "./temp-home.ts";

/** `uwf mcp` with the MCP SDK's own client connected to it. */
export interface McpSession {
  client: Client;
  /** What the client could not read on the server's stdout: anything but MCP messages lands here. */
  errors: Error[];
  stderr: () => string;
  call(name: string, input: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult>;
  /** A tool's structured result, failing the test (with uwf's error) when the call failed. */
  result<Value>(name: string, input: Record<string, unknown>): Promise<Value>;
}

export interface ConnectMcpOptions {
  /** Global flags, before `mcp`. */
  globals?: string[];
  /** `mcp`'s own flags. */
  flags?: string[];
  env?: Record<string, string>;
}

/**
 * Gives a test file `connect`: `uwf [GLOBALS…] mcp [FLAGS…]` in a temp home, driven by the MCP SDK's own
 * client over stdio. Every session a test opens is closed after it.
 */
export function useMcpSessions(): { connect(home: TempHome, options?: ConnectMcpOptions): Promise<McpSession> } {
  const sessions: Client[] = [];
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((client) => client.close()));
  });
  return {
    async connect(home: TempHome, options: ConnectMcpOptions = {}): Promise<McpSession> {
      const transport = new StdioClientTransport({
        command: UWF_COMMAND[0] as string,
        args: [...UWF_COMMAND.slice(1), ...(options.globals ?? []), "mcp", ...(options.flags ?? [])],
        cwd: home.work,
        env: { ...(process.env as Record<string, string>), UWF_HOME: home.home, NO_COLOR: "1", ...options.env },
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const client = new Client({ name: "uwf-e2e", version: "1.0.0" });
      const errors: Error[] = [];
      client.onerror = (error) => errors.push(error);
      await client.connect(transport);
      sessions.push(client);
      const call = async (name: string, input: Record<string, unknown>, callOptions: { signal?: AbortSignal } = {}) =>
        (await client.callTool({ name, arguments: input }, undefined, callOptions)) as CallToolResult;
      return {
        client,
        errors,
        stderr: () => stderr,
        call,
        async result<Value>(name: string, input: Record<string, unknown>) {
          const called = await call(name, input);
          if (called.isError === true) throw new Error(`${name} failed: ${JSON.stringify(called.content)}`);
          // The text is the structured content, as `--json` prints it.
          expect(JSON.parse((called.content[0] as { text: string }).text)).toEqual(called.structuredContent);
          return called.structuredContent as Value;
        },
      };
    },
  };
}

/** The error document of a failed tool call: the CLI's `--json` error, `{"error":{code,message,data}}`. */
export function toolErrorOf(called: CallToolResult) {
  expect(called.isError).toBe(true);
  return errorResultSchema.parse(JSON.parse((called.content[0] as { text: string }).text)).error;
}
