import type { FileSink } from "bun";
import { UWF_COMMAND } from "./run-process.ts";
import type { TempHome } from "./temp-home.ts";

/** One JSON-RPC message `uwf mcp` wrote: an answer (`id` with `result` or `error`) or a notification (`method`). */
export interface RawMcpMessage {
  jsonrpc: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** `uwf mcp` on raw pipes, for what the MCP SDK's client would hide (malformed lines, progress beside a result). */
export interface RawMcpServer {
  /** Writes `text` to the server's stdin as it is. */
  write(text: string): Promise<void>;
  /** The next message on stdout, every line read in order. */
  next(): Promise<RawMcpMessage>;
  /** Closes stdin and waits for the server to exit. */
  stop(): Promise<{ exitCode: number; stderr: string }>;
}

/** A JSON-RPC request as one line. */
export function rawMcpRequest(id: unknown, method: string, params: unknown = {}): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`;
}

/** `uwf mcp` (in `temp`'s home) on raw pipes, not yet initialized. */
export function serveRawMcp(temp: TempHome): RawMcpServer {
  const child = Bun.spawn([...UWF_COMMAND, "mcp"], {
    cwd: temp.work,
    env: { ...process.env, UWF_HOME: temp.home, NO_COLOR: "1" },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdin = child.stdin as FileSink;
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const stderr = new Response(child.stderr as ReadableStream).text();
  return {
    async write(text) {
      stdin.write(text);
      await stdin.flush();
    },
    async next() {
      for (;;) {
        const newline = buffered.indexOf("\n");
        if (newline !== -1) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          return JSON.parse(line) as RawMcpMessage;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`uwf mcp closed stdout; stderr: ${await stderr}`);
        buffered += decoder.decode(value, { stream: true });
      }
    },
    async stop() {
      stdin.end();
      return { exitCode: await child.exited, stderr: await stderr };
    },
  };
}

/** Initializes a raw server as a client would: `initialize` (its answer read), then `notifications/initialized`. */
export async function initializeRawMcp(server: RawMcpServer): Promise<RawMcpMessage> {
  await server.write(
    rawMcpRequest(0, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    }),
  );
  const answer = await server.next();
  await server.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return answer;
}
