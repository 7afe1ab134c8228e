import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  fakeChatErrorReply,
  fakeChatTextReply,
  fakeChatToolCallReply,
  startFakeOpenaiServer,
} from "@uwf/agent-kit/test";
import { configSchema, stepResultSchema } from "@uwf/protocol";
import { parse as parseYaml } from "yaml";
import { runOfStep } from "../../helpers/cas-nodes.ts";
import { useTempHomeWithFakeApi } from "../../helpers/fake-api-home.ts";
import { fixtureWorkflow } from "../../helpers/temp-home.ts";
import { expectHelloWorldRecords, expectHelloWorldRun, HELLO_WORLD_TURNS } from "./hello-world-run.ts";

const STATUS_MAP_WORKFLOW = fixtureWorkflow("openai-review");
const ORDERED_WORKFLOW = fixtureWorkflow("openai-review-ordered");
const KEY_VARIABLE = "UWF_E2E_FAKE_OPENAI_KEY";
const KEY = "test-key-not-secret";
const env = { [KEY_VARIABLE]: KEY };

// Strict (the default): a request the real Chat Completions API would refuse gets its 400.
const { temp, server, replaceServer } = useTempHomeWithFakeApi(() => startFakeOpenaiServer({ apiKey: KEY }));

/** The built-in openai agent as the default, on provider `local` (type openai) served by the fake. */
function writeConfig(extra: string[] = []): void {
  temp.writeConfig(
    [
      "defaultAgent: local",
      "agents:",
      "  local: { builtin: openai, maxTurns: 5 }",
      "providers:",
      `  local: { type: openai, baseUrl: "${server.url}", apiKeyEnv: ${KEY_VARIABLE} }`,
      "models:",
      "  llama: { provider: local, model: llama-3.3-70b, prices: { input: 2, output: 10 } }",
      "  small: { provider: local, model: qwen3-8b, prices: { input: 1, output: 5 } }",
      "defaultModel: llama",
      ...extra,
    ].join("\n"),
  );
}

type ChatBody = { model: string; messages: Array<{ role: string; content?: unknown; tool_calls?: unknown }> } & Record<
  string,
  unknown
>;
const requestBody = (index: number) => server.completionRequests()[index]?.body as ChatBody;

describe("the built-in openai agent, end to end against the strict fake Chat Completions API", () => {
  it("runs a workflow to its end: tools change files, a 429 is retried, the writer's second visit continues its conversation, usage and cost are recorded", async () => {
    writeConfig();
    server.enqueue(
      // Step 1, writer: rate limited once, then the hello-world turns.
      fakeChatErrorReply("rate_limit_exceeded", { retryAfter: "0.2" }),
      ...HELLO_WORLD_TURNS.map((turn) => {
        const usage = { prompt_tokens: turn.usage.input, completion_tokens: turn.usage.output };
        if ("text" in turn) return fakeChatTextReply(turn.text, usage);
        const calls = turn.tools.map((tool) => ({ name: tool.name, arguments: tool.input }));
        return fakeChatToolCallReply(calls, { usage });
      }),
    );
    const run = await temp.uwf(["run", STATUS_MAP_WORKFLOW, "-p", "Create hello.txt", "--json"], { env });
    const result = expectHelloWorldRun(temp, run);
    expect(server.remaining()).toBe(0);

    // The 429 was answered by the same request again, after the wait it asked for.
    const statuses = server.completionRequests().map((request) => request.status);
    expect(statuses).toEqual([429, 200, 200, 200, 200, 200, 200]);
    expect(requestBody(1)).toEqual(requestBody(0));
    const firstRun = await runOfStep(temp, result.steps[0]?.address ?? "");
    expect(firstRun.attempts[0]?.stderrTail).toContain(
      "turn 1: 429 requests: Rate limit reached for requests (attempt 1 of 5); retrying in 0.2 s",
    );

    // Tool results went back as one tool message per call.
    expect(requestBody(2).messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
    ]);
    // The reviewer's first visit did not see the writer's conversation.
    expect(requestBody(3).messages.map((message) => message.role)).toEqual(["system", "user"]);
    // The writer's second visit starts from its first conversation, then only what happened since.
    const secondVisit = requestBody(4);
    expect(secondVisit.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "user",
    ]);
    expect(secondVisit.messages.slice(0, 6)).toEqual([...requestBody(2).messages, secondVisit.messages[5] as never]);
    expect(JSON.stringify(secondVisit.messages[2]?.tool_calls)).toContain('"name":"write_file"');
    expect(String(secondVisit.messages[5]?.content)).toContain("summary: wrote hello.txt");
    const newTurn = String(secondVisit.messages[6]?.content);
    expect(newTurn).toContain("Address the review: say hello world");
    expect(newTurn).toContain("## Step 2: reviewer");
    expect(newTurn).not.toContain("## Step 1");
    expect(JSON.stringify(server.requests)).not.toContain(KEY);

    // Usage and cost per step and per thread: 8,000 input tokens at $2, 230 output at $10 per million.
    expect(result.steps.map((step) => step.usage?.costUsd)).toEqual([0.0059, 0.0018, 0.0087, 0.0019]);
    await expectHelloWorldRecords(temp, result, 0.0183);
  }, 60_000);

  it("extracts the fields with an extraction model on the openai provider when the reply has no frontmatter", async () => {
    writeConfig(["extractionModel: small", "retries: 0"]);
    server.enqueue(
      fakeChatTextReply("I wrote hello.txt as asked.", { prompt_tokens: 10, completion_tokens: 5 }),
      // The extraction model is made to call report_fields.
      fakeChatToolCallReply(
        { name: "report_fields", arguments: { summary: "wrote hello.txt" } },
        { usage: { prompt_tokens: 300, completion_tokens: 20 } },
      ),
      fakeChatTextReply("---\napproved: true\n---\n"),
    );
    const run = await temp.uwf(["run", ORDERED_WORKFLOW, "-p", "Create hello.txt", "--json"], { env });
    expect(run.exitCode).toBe(0);
    const result = stepResultSchema.parse(run.json());
    expect(result.steps.map((step) => [step.role, step.output])).toEqual([
      ["writer", { summary: "wrote hello.txt" }],
      ["reviewer", { approved: true }],
    ]);
    const extraction = requestBody(1);
    expect(extraction.model).toBe("qwen3-8b");
    expect(extraction.tool_choice).toEqual({ type: "function", function: { name: "report_fields" } });
    const writerRun = await runOfStep(temp, result.steps[0]?.address ?? "");
    expect(writerRun.extraction).toBe("llm");
    // The agent's turn at llama's prices and the extraction at small's.
    expect(writerRun.usage).toMatchObject({ inputTokens: 310, outputTokens: 25 });
    expect(result.steps[1]?.output).toEqual({ approved: true });
    // The reviewer's prompt was rendered from the extracted fields.
    expect(String(requestBody(2).messages[1]?.content)).toContain("Review the change: wrote hello.txt");
  }, 60_000);

  it("fails the step cleanly when the conversation is over the server's context window", async () => {
    await replaceServer(() => startFakeOpenaiServer({ apiKey: KEY, contextWindow: 2_000 }));
    writeConfig(["retries: 0"]);
    const run = await temp.uwf(["run", STATUS_MAP_WORKFLOW, "-p", "Create hello.txt"], { env });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("the request is over llama-3.3-70b's context window");
    expect(run.stderr).toContain("400 context_length_exceeded: This model's maximum context length is 2000 tokens");
    expect(server.completionRequests()).toHaveLength(1);
  }, 60_000);

  it("uwf setup --agent openai writes a provider of type openai and checks it on /chat/completions", async () => {
    const setup = await temp.uwf(
      [
        "setup",
        "--agent",
        "openai",
        "--provider",
        "local",
        "--base-url",
        server.url,
        "--api-key-env",
        KEY_VARIABLE,
        "--model",
        "qwen3:8b",
        "--json",
      ],
      { env },
    );
    expect(setup.stderr).toBe("");
    expect(setup.exitCode).toBe(0);
    expect(setup.json()).toMatchObject({ provider: "local", agent: "openai", model: "qwen3-8b", verified: true });
    const config = configSchema.parse(parseYaml(readFileSync(join(temp.home, "config.yaml"), "utf8")));
    expect(config.providers.local).toEqual({ type: "openai", baseUrl: server.url, apiKeyEnv: KEY_VARIABLE });
    expect(config.agents.openai).toEqual({ builtin: "openai" });
    expect(config.defaultAgent).toBe("openai");
    expect(requestBody(0)).toMatchObject({ model: "qwen3:8b", max_tokens: 16 });

    const refused = await temp.uwf(["setup", "--agent", "openai", "--base-url", server.url, "--no-verify"]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("--agent openai needs --model");
  }, 60_000);
});
