import { beforeEach, describe, expect, it } from "bun:test";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fakeTextReply, fakeToolUseReply } from "@uwf/agent-kit/test";
import { listResultSchema, shownThreadSchema, stepResultSchema } from "@uwf/protocol";
import { claudeCodeCli, useClaudeCodeHome } from "../../helpers/claude-code-cli.ts";
import { runProcess, UWF_COMMAND } from "../../helpers/run-process.ts";
import { LINEAR, SCRIPTED } from "../../helpers/temp-home.ts";

/** The real `claude` CLI, installed for these tests on first use (see claude-code-cli.ts). */
const CLAUDE = claudeCodeCli();

// MCP tools offered up front, with their schemas (which the strict fake checks), rather than found through
// Claude Code's ToolSearch first.
const { temp, server, env } = useClaudeCodeHome({ ENABLE_TOOL_SEARCH: "false" });

/** A client names workflows by what the store holds: LINEAR as a file of the home's workflows/. */
function addLinear(home: string): void {
  mkdirSync(join(home, "workflows"), { recursive: true });
  copyFileSync(LINEAR, join(home, "workflows", "linear.yaml"));
}

beforeEach(() => addLinear(temp.home));

/** `claude -p PROMPT` with uwf registered as its MCP server `uwf` (this temp home's store), allowed these tools. */
async function runClaude(
  prompt: string,
  allowedTools: string[],
  serverEnv: Record<string, string> = { UWF_HOME: temp.home },
) {
  const mcpConfig = {
    mcpServers: {
      uwf: {
        type: "stdio",
        command: UWF_COMMAND[0],
        args: [...UWF_COMMAND.slice(1), "mcp"],
        env: { NO_COLOR: "1", ...serverEnv },
      },
    },
  };
  return runProcess(
    [
      CLAUDE,
      "-p",
      prompt,
      "--output-format",
      "json",
      "--mcp-config",
      JSON.stringify(mcpConfig),
      "--strict-mcp-config",
      "--allowedTools",
      allowedTools.join(","),
    ],
    {
      cwd: temp.work,
      // The server inherits Claude Code's environment: no UWF_HOME unless the config gives one.
      env: { ...withoutUwfHome(process.env), ...env() },
    },
  );
}

function withoutUwfHome(environment: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const { UWF_HOME: _home, ...rest } = environment;
  return rest;
}

interface ToolResultBlock {
  type: "tool_result";
  content?: unknown;
  is_error?: boolean;
}

/** The tool results Claude Code sent back to the model in a request. */
function toolResultBlocks(request: { body: unknown } | undefined): ToolResultBlock[] {
  const messages = (request?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined)?.messages;
  return (messages ?? []).flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.filter((block: { type?: string }): block is ToolResultBlock => block.type === "tool_result")
      : [],
  );
}

/** The tool results of a request, as text. */
function toolResults(request: { body: unknown } | undefined): string[] {
  return toolResultBlocks(request).map((block) => JSON.stringify(block.content));
}

/** The text of a tool result: a string, or text blocks joined. */
function resultText(block: ToolResultBlock | undefined): string {
  const content = block?.content;
  if (typeof content === "string") return content;
  return (Array.isArray(content) ? content : [])
    .map((part: { type?: string; text?: string }) => (part.type === "text" ? (part.text ?? "") : ""))
    .join("");
}

describe("uwf mcp used by the real claude CLI against the fake Messages API", () => {
  it("starts a thread when the model calls mcp__uwf__start, and the model sees uwf's result", async () => {
    server.enqueue(
      fakeToolUseReply({ name: "mcp__uwf__start", input: { workflow: "linear", prompt: "Write hello.txt" } }),
      fakeToolUseReply({ name: "mcp__uwf__list", input: {} }),
      fakeTextReply("Started the thread."),
    );
    const run = await runClaude("Start a linear thread with uwf.", ["mcp__uwf__start", "mcp__uwf__list"]);
    expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({ exitCode: 0, stderr: "" });
    expect((JSON.parse(run.stdout) as { result: string }).result).toBe("Started the thread.");

    // The store shows the effect: one thread of the linear workflow, not yet stepped.
    const listed = listResultSchema.parse((await temp.uwf(["list", "--json"])).json());
    expect(listed.threads.map((thread) => [thread.workflow, thread.status, thread.stepCount])).toEqual([
      ["linear", "active", 0],
    ]);
    const thread = listed.threads[0]?.id ?? "";

    // The model was offered uwf's tools, and the next request carried each call's real result.
    const requests = server.scriptedRequests();
    type OfferedTools = { tools?: Array<{ name: string; input_schema: { properties?: object } }> };
    const offered = ((requests[0]?.body ?? {}) as OfferedTools).tools;
    const start = offered?.find((tool) => tool.name === "mcp__uwf__start");
    expect(Object.keys(start?.input_schema.properties ?? {})).toContain("workflow");
    expect(offered?.map((tool) => tool.name)).toContain("mcp__uwf__step");
    const startResult = toolResults(requests[1]).join("\n");
    expect(startResult).toContain(thread);
    const shown = shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
    expect(startResult).toContain(shown.head);
    expect(toolResults(requests[2]).at(-1)).toContain(`\\"id\\":\\"${thread}\\"`);
    expect(server.rejectedRequests()).toEqual([]);
    expect(JSON.stringify(server.requests)).not.toContain("test-key-not-secret");
  }, 120_000);

  it("runs a workflow through mcp__uwf__run (its agents writing nothing on the MCP channel), and tells a bad thread id as an error", async () => {
    server.enqueue(
      fakeToolUseReply({
        name: "mcp__uwf__run",
        input: { workflow: "linear", prompt: "Write hello.txt", agent: SCRIPTED },
      }),
      fakeToolUseReply({ name: "mcp__uwf__show", input: { reference: "01ZZZZZZZZZZZZZZZZZZZZZZZZ" } }),
      fakeTextReply("The thread ended."),
    );
    const run = await runClaude("Run a linear thread with uwf.", ["mcp__uwf__run", "mcp__uwf__show"]);
    expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({ exitCode: 0, stderr: "" });

    const requests = server.scriptedRequests();
    expect(requests).toHaveLength(3);
    // The model saw `uwf run --json`'s result: the steps the scripted agent took, the thread ended.
    const ran = stepResultSchema.parse(JSON.parse(resultText(toolResultBlocks(requests[1]).at(-1))));
    expect(ran.steps.map((step) => step.role)).toEqual(["planner", "doer"]);
    expect(ran.status).toBe("ended");
    const shown = shownThreadSchema.parse((await temp.uwf(["show", ran.thread, "--json"])).json());
    expect([shown.status, shown.stepCount, shown.head]).toEqual(["ended", 2, ran.head]);

    // A bad thread id: an error result, carrying uwf's error code, and the server went on serving.
    const failed = toolResultBlocks(requests[2]).at(-1);
    expect(failed?.is_error).toBe(true);
    expect(resultText(failed)).toContain('"code":"thread-not-found"');
    expect(server.rejectedRequests()).toEqual([]);
  }, 120_000);

  it("serves the project's own .uwf/ when the config names no home: Claude Code starts it in its working directory", async () => {
    const initialized = await temp.uwf(["init"], { cwd: temp.work, env: { UWF_HOME: "" } });
    expect(initialized.exitCode).toBe(0);
    addLinear(join(temp.work, ".uwf"));
    server.enqueue(
      fakeToolUseReply({ name: "mcp__uwf__start", input: { workflow: "linear", prompt: "In the project" } }),
      fakeTextReply("Started."),
    );
    const run = await runClaude("Start a thread.", ["mcp__uwf__start"], {});
    expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({ exitCode: 0, stderr: "" });
    const project = join(temp.work, ".uwf");
    const listed = listResultSchema.parse((await temp.uwf(["--home", project, "list", "--json"])).json());
    expect(listed.threads.map((thread) => thread.workflow)).toEqual(["linear"]);
    expect(toolResults(server.scriptedRequests()[1]).join("")).toContain(listed.threads[0]?.id ?? "no thread");
    // The temp home the other commands use got nothing.
    expect(listResultSchema.parse((await temp.uwf(["list", "--json"])).json()).threads).toEqual([]);
  }, 120_000);
});
