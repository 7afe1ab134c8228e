import { describe, expect, it } from "bun:test";
import type { FileSink } from "bun";
import { UWF_COMMAND } from "../../helpers/run-process.ts";
import { LINEAR, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();

interface Answer {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** `uwf mcp` on raw pipes: lines are written as they are, answers read a line at a time. */
function serve() {
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
    async write(text: string) {
      stdin.write(text);
      await stdin.flush();
    },
    /** The next answer on stdout. */
    async next(): Promise<Answer> {
      for (;;) {
        const newline = buffered.indexOf("\n");
        if (newline !== -1) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          return JSON.parse(line) as Answer;
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

const request = (id: unknown, method: string, params: unknown = {}) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`;

const INITIALIZE = request(0, "initialize", {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "raw", version: "1" },
});

describe("uwf mcp's stdio transport", () => {
  it("answers malformed lines with their JSON-RPC errors, says so on stderr, and goes on serving", async () => {
    const server = serve();
    await server.write(INITIALIZE);
    expect((await server.next()).id).toBe(0);
    await server.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);

    const cases: [string, number, string | number | null][] = [
      ["{not json\n", -32700, null],
      ["\n", -32700, null],
      [`[${request(1, "ping").trim()}]\n`, -32600, null],
      [`${JSON.stringify({ id: 2, method: "ping" })}\n`, -32600, 2],
      [`${JSON.stringify({ jsonrpc: "2.0", id: { object: true }, method: "ping" })}\n`, -32600, null],
      [`${JSON.stringify({ jsonrpc: "1.0", id: "three", method: "ping" })}\n`, -32600, "three"],
      ["42\n", -32600, null],
    ];
    for (const [line, code, id] of cases) {
      await server.write(line);
      const answer = await server.next();
      expect({ line, answer }).toMatchObject({ line, answer: { jsonrpc: "2.0", id, error: { code } } });
    }
    await server.write(request(9, "ping"));
    expect(await server.next()).toEqual({ jsonrpc: "2.0", id: 9, result: {} });

    const { exitCode, stderr } = await server.stop();
    expect(exitCode).toBe(0);
    const refusals = stderr.split("\n").filter((line) => line.includes("uwf mcp: refused"));
    expect(refusals).toHaveLength(cases.length);
    expect(refusals[0]).toStartWith("warning: uwf mcp: refused a line that is no JSON");
    expect(refusals[1]).toBe("warning: uwf mcp: refused a line that is an empty line");
  }, 60_000);

  it("takes a 12 MiB prompt, refuses a message over 64 MiB with its id, and answers the calls around it", async () => {
    const server = serve();
    await server.write(INITIALIZE);
    expect((await server.next()).id).toBe(0);
    await server.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);

    // Over the SDK's own 10 MiB buffer, under the CLI's 16 MiB prompt limit: a thread is started.
    const prompt = "p".repeat(12 * 1024 * 1024);
    // A client names a registered workflow, never a file.
    expect((await temp.uwf(["workflow", "add", LINEAR])).exitCode).toBe(0);
    await server.write(request(1, "tools/call", { name: "start", arguments: { workflow: "linear", prompt } }));
    const started = await server.next();
    expect(started.id).toBe(1);
    expect(started.result?.isError).not.toBe(true);
    const thread = (started.result?.structuredContent as { thread?: string } | undefined)?.thread;
    expect(thread).toMatch(/^[0-9A-Z]{26}$/);

    await server.write(
      request(2, "tools/call", { name: "list", arguments: { padding: "x".repeat(65 * 1024 * 1024) } }),
    );
    const refused = await server.next();
    expect(refused).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(refused.error?.message).toContain("over uwf mcp's limit of 67108864 bytes");

    await server.write(request(3, "tools/call", { name: "list", arguments: {} }));
    const listed = await server.next();
    expect(listed.id).toBe(3);
    expect(JSON.stringify(listed.result)).toContain(String(thread));

    const { exitCode, stderr } = await server.stop();
    expect(exitCode).toBe(0);
    expect(stderr).toContain("uwf mcp: refused a message of");
  }, 120_000);
});
