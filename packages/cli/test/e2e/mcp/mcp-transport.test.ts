import { describe, expect, it } from "bun:test";
import { initializeRawMcp, rawMcpRequest, serveRawMcp } from "../../helpers/raw-mcp-server.ts";
import { LINEAR, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();

describe("uwf mcp's stdio transport", () => {
  it("answers malformed lines with their JSON-RPC errors, says so on stderr, and goes on serving", async () => {
    const server = serveRawMcp(temp);
    expect((await initializeRawMcp(server)).id).toBe(0);

    const cases: [string, number, string | number | null][] = [
      ["{not json\n", -32700, null],
      ["\n", -32700, null],
      [`[${rawMcpRequest(1, "ping").trim()}]\n`, -32600, null],
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
    await server.write(rawMcpRequest(9, "ping"));
    expect(await server.next()).toEqual({ jsonrpc: "2.0", id: 9, result: {} });

    const { exitCode, stderr } = await server.stop();
    expect(exitCode).toBe(0);
    const refusals = stderr.split("\n").filter((line) => line.includes("uwf mcp: refused"));
    expect(refusals).toHaveLength(cases.length);
    expect(refusals[0]).toStartWith("warning: uwf mcp: refused a line that is no JSON");
    expect(refusals[1]).toBe("warning: uwf mcp: refused a line that is an empty line");
  }, 60_000);

  it("takes a 12 MiB prompt, refuses a message over 64 MiB with its id, and answers the calls around it", async () => {
    const server = serveRawMcp(temp);
    expect((await initializeRawMcp(server)).id).toBe(0);

    // Over the SDK's own 10 MiB buffer, under the CLI's 16 MiB prompt limit: a thread is started.
    const prompt = "p".repeat(12 * 1024 * 1024);
    // A client names a registered workflow, never a file.
    expect((await temp.uwf(["workflow", "add", LINEAR])).exitCode).toBe(0);
    await server.write(rawMcpRequest(1, "tools/call", { name: "start", arguments: { workflow: "linear", prompt } }));
    const started = await server.next();
    expect(started.id).toBe(1);
    expect(started.result?.isError).not.toBe(true);
    const thread = (started.result?.structuredContent as { thread?: string } | undefined)?.thread;
    expect(thread).toMatch(/^[0-9A-Z]{26}$/);

    await server.write(
      rawMcpRequest(2, "tools/call", { name: "list", arguments: { padding: "x".repeat(65 * 1024 * 1024) } }),
    );
    const refused = await server.next();
    expect(refused).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(refused.error?.message).toContain("over uwf mcp's limit of 67108864 bytes");

    await server.write(rawMcpRequest(3, "tools/call", { name: "list", arguments: {} }));
    const listed = await server.next();
    expect(listed.id).toBe(3);
    expect(JSON.stringify(listed.result)).toContain(String(thread));

    const { exitCode, stderr } = await server.stop();
    expect(exitCode).toBe(0);
    expect(stderr).toContain("uwf mcp: refused a message of");
  }, 120_000);
});
