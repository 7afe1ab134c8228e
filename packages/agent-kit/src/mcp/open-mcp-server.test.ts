import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import type { McpServerSpec } from "@uwf/protocol";
import { McpServerFailedError } from "../errors/mcp-server-failed-error.ts";
import { type AgentRunFixture, createAgentRunFixture } from "../test/agent-run-fixture.ts";
import type { ToolContext } from "../tools/agent-tool.ts";
import { SERVER_NAME_TOO_LONG } from "./mcp-tool-name.ts";
import { openMcpServer } from "./open-mcp-server.ts";

let fixture: AgentRunFixture;
let context: ToolContext;

beforeEach(() => {
  fixture = createAgentRunFixture({ prefix: "uwf-open-mcp-server-test-" });
  context = fixture.toolContext;
});

afterEach(() => fixture.remove());

/** What opening `spec` as server `name` throws; the test fails when it opens. */
async function failureOf(name: string, spec: McpServerSpec): Promise<McpServerFailedError> {
  const opened = openMcpServer({ name, spec, context, variables: {}, note: () => {} });
  const error = await opened.then(
    async (server) => {
      await server.close();
      return null;
    },
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpServerFailedError);
  const failure = error as McpServerFailedError;
  expect(failure.code).toBe("mcp-server-failed");
  expect(failure.message).toBe(`MCP server "${failure.data.server}": ${failure.data.problem}`);
  return failure;
}

describe("openMcpServer", () => {
  it("refuses a server name too long for its tools' names", async () => {
    const name = "s".repeat(62);
    const failure = await failureOf(name, { command: "true", args: [] });
    expect(failure.data).toEqual({ server: name, field: null, problem: SERVER_NAME_TOO_LONG });
  });

  it("names the env key whose variable is not set, before starting the server", async () => {
    const failure = await failureOf("fs", { command: "true", args: [], env: { TOKEN: `\${UWF_TEST_NO_SUCH_VAR}` } });
    expect(failure.data).toEqual({
      server: "fs",
      field: "env.TOKEN",
      problem: `env TOKEN: \${UWF_TEST_NO_SUCH_VAR} is not set`,
    });
  });

  it("names the header whose variable is not set, before connecting", async () => {
    const failure = await failureOf("remote", {
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: `Bearer \${UWF_TEST_NO_SUCH_VAR}` },
    });
    expect(failure.data).toEqual({
      server: "remote",
      field: "headers.Authorization",
      problem: `header Authorization: \${UWF_TEST_NO_SUCH_VAR} is not set`,
    });
  });

  it("says how a server that exited before it answered exited, with its last stderr line", async () => {
    const failure = await failureOf("quitter", { command: "sh", args: ["-c", "echo 'no config here' >&2; exit 3"] });
    expect(failure.data).toEqual({
      server: "quitter",
      field: null,
      problem: "it exited (exit code 3) before it answered: no config here",
    });
  });

  it("names a command that cannot be started", async () => {
    const failure = await failureOf("ghost", { command: "uwf-no-such-mcp-server", args: [] });
    expect(failure.data).toMatchObject({ server: "ghost", field: null });
    expect(failure.data.problem).toStartWith("could not start uwf-no-such-mcp-server: ");
  });

  it("says it could not connect to an HTTP server that does not answer", async () => {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = probe.port ?? 0;
    probe.stop(true);
    const failure = await failureOf("remote", { url: `http://127.0.0.1:${port}/mcp` });
    expect(failure.data).toMatchObject({ server: "remote", field: null });
    expect(failure.data.problem).toStartWith("could not connect: ");
  });
});
