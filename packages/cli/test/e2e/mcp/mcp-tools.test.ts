import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  everythingServerSpec,
  fakeTextReply,
  fakeToolUseReply,
  filesystemServerSpec,
  isProcessRunning,
  processesWithCwd,
  startFakeAnthropicServer,
} from "@uwf/agent-kit/test";
import { waitFor } from "@uwf/cas/test";
import { type McpServers, stepResultSchema, threadStepNodeSchema } from "@uwf/protocol";
import { errorOf } from "../../helpers/error-of.ts";
import { useTempHomeWithFakeApi } from "../../helpers/fake-api-home.ts";
import { FAKE_MODEL_ENV, FAKE_MODEL_KEY, fakeModelConfig } from "../../helpers/fake-model-api.ts";
import { FIXTURES } from "../../helpers/temp-home.ts";

const WORKFLOW = join(FIXTURES, "workflows/model-review.yaml");

interface RequestBody {
  messages: unknown[];
  tools: Array<{ name: string }>;
}
const env = FAKE_MODEL_ENV;

const { temp, server } = useTempHomeWithFakeApi(() => startFakeAnthropicServer({ apiKey: FAKE_MODEL_KEY }));

/** config.yaml: the fake model's config, with the built-in agent `model` given `servers` (JSON is YAML). */
function writeConfig(servers: McpServers): void {
  const config = fakeModelConfig(server.url).replace(
    "  model: { builtin: anthropic, maxTurns: 5 }",
    `  model: { builtin: anthropic, maxTurns: 5, mcpServers: ${JSON.stringify(servers)} }`,
  );
  expect(config).toContain("mcpServers");
  temp.writeConfig(config);
}

/**
 * A thread whose first step's model calls a tool of a real MCP server `slow` that takes two minutes;
 * `seen` gets the processes running in the work folder (the server's) when that call is asked for.
 */
async function startSlowToolCall(): Promise<{ thread: string; seen: number[] }> {
  writeConfig({ slow: everythingServerSpec({ timeout: 120 }) });
  const thread = await temp.startThread(WORKFLOW, "Take your time");
  const seen: number[] = [];
  server.enqueue(() => {
    seen.push(...processesWithCwd(temp.work));
    return fakeToolUseReply({ name: "slow__trigger-long-running-operation", input: { duration: 120, steps: 2 } });
  });
  return { thread, seen };
}

describe("MCP servers of the built-in agent, through the uwf binary", () => {
  it("runs a workflow whose writer uses a real MCP server's tools; the servers are gone after each step", async () => {
    writeConfig({
      files: filesystemServerSpec(["."], { deny: ["move_file"] }),
      everything: everythingServerSpec({ allow: ["echo"] }),
    });
    const seen: number[] = [];
    server.enqueue(
      fakeToolUseReply([
        { name: "files__write_file", input: { path: "hello.txt", content: "hello from MCP\n" } },
        { name: "files__move_file", input: { source: "hello.txt", destination: "moved.txt" } },
      ]),
      () => {
        seen.push(...processesWithCwd(temp.work));
        return fakeTextReply("---\nsummary: wrote hello.txt through MCP\n---\n");
      },
      fakeToolUseReply({ name: "everything__echo", input: { message: "reviewing" } }),
      fakeTextReply("---\n$status: approved\ncomments: fine\n---\n"),
    );
    const run = await temp.uwf(["run", WORKFLOW, "-p", "Create hello.txt", "--json"], { env });
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const result = stepResultSchema.parse(run.json());
    expect(result.status).toBe("ended");
    expect(readFileSync(join(temp.work, "hello.txt"), "utf8")).toBe("hello from MCP\n");

    const requests = server.messageRequests().map((request) => request.body as RequestBody);
    const results = JSON.stringify(requests[1]?.messages.at(-1));
    expect(results).toContain("Successfully wrote to hello.txt");
    expect(results).toContain(
      `the tool \\"files__move_file\\" is not available: the deny list of MCP server \\"files\\" names it`,
    );
    const offered = requests[0]?.tools.map((tool) => tool.name) ?? [];
    expect(offered).toContain("files__write_file");
    expect(offered).toContain("everything__echo");
    expect(offered).not.toContain("files__move_file");
    expect(offered).not.toContain("everything__get-env");

    // The stored transcript of the writer's step holds the MCP call and its result.
    const firstStep = result.steps[0];
    const step = threadStepNodeSchema.parse((await temp.uwf(["cas", "get", String(firstStep?.address)])).json());
    const transcript = await temp.uwf(["show", step.run, "--json"]);
    expect(transcript.stdout).toContain("files__write_file");
    expect(transcript.stdout).toContain("Successfully wrote to hello.txt");

    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const pid of seen) expect(isProcessRunning(pid)).toBe(false);
    expect(processesWithCwd(temp.work)).toEqual([]);
  });

  it("stops the servers when uwf gets SIGTERM during a tool call: exit 130, no server process left", async () => {
    const { thread, seen } = await startSlowToolCall();
    const stepper = temp.spawn(["step", thread, "--json"], { env });
    await waitFor(() => server.requests.length === 1 && seen.length > 0, { what: "the model's tool call" });
    stepper.kill("SIGTERM");
    expect(await stepper.exited).toBe(130);
    const error = errorOf(await new Response(stepper.stderr as ReadableStream).text());
    expect(error.code).toBe("interrupted");
    for (const pid of seen) expect(isProcessRunning(pid)).toBe(false);
    expect(processesWithCwd(temp.work)).toEqual([]);
    expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 0 });
  });

  it("stops the servers when the step times out during a tool call: the thread failed, no server process left", async () => {
    const { thread, seen } = await startSlowToolCall();
    const stepped = await temp.uwf(["step", thread, "--timeout", "6", "--json"], { env });
    expect(stepped.exitCode).toBe(1);
    const error = errorOf(stepped.stderr);
    expect(error.code).toBe("agent-failed");
    expect(error.message).toContain("timed out after 6 s");
    expect(seen.length).toBeGreaterThan(0);
    for (const pid of seen) expect(isProcessRunning(pid)).toBe(false);
    expect(processesWithCwd(temp.work)).toEqual([]);
    expect(await temp.showThread(thread)).toMatchObject({ status: "failed", stepCount: 0 });
  });

  it("fails the step with one line naming a server that cannot start", async () => {
    writeConfig({ broken: { command: "uwf-no-such-mcp-server", args: [] } });
    const thread = await temp.startThread(WORKFLOW, "Anything");
    const stepped = await temp.uwf(["step", thread, "--json"], { env });
    expect(stepped.exitCode).toBe(1);
    const error = errorOf(stepped.stderr);
    expect(error.code).toBe("agent-failed");
    expect(error.message).toContain(`MCP server "broken": could not start uwf-no-such-mcp-server: `);
    expect(server.requests).toHaveLength(0);
    expect(await temp.showThread(thread)).toMatchObject({ status: "failed", stepCount: 0 });
  });
});
