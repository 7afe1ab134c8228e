import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { configSchema } from "@uwf/protocol";
import { type AgentRunFixture, createAgentRunFixture } from "../test/agent-run-fixture.ts";
import type { ApiErrorClasses } from "./api-error-classes.ts";
import type { ModelProvider, ModelTurnReply, ModelTurnRequest } from "./model-provider.ts";
import { runToolLoop } from "./run-tool-loop.ts";
import type { ToolLoopApi } from "./set-up-tool-loop-run.ts";

/** A provider's error hierarchy in miniature, shaped like both SDKs'. */
class APIError extends Error {
  readonly status: number | undefined;
  readonly error: unknown;
  readonly headers: Headers | undefined;
  constructor(status: number | undefined, error: unknown, message: string, headers?: Headers) {
    super(message);
    this.status = status;
    this.error = error;
    this.headers = headers;
  }
}
class APIUserAbortError extends APIError {}
class APIConnectionError extends APIError {}
class AuthenticationError extends APIError {}
class PermissionDeniedError extends APIError {}
class BadRequestError extends APIError {}
const ERRORS = {
  APIError,
  APIUserAbortError,
  APIConnectionError,
  AuthenticationError,
  PermissionDeniedError,
  BadRequestError,
} as unknown as ApiErrorClasses;

/** An in-memory provider answering from a script; it records the conversation each request carried. */
function scriptedApi(script: Array<ModelTurnReply | Error>, requests: ModelTurnRequest[]): ToolLoopApi {
  const provider: ModelProvider = {
    errors: ERRORS,
    requestTurn: async (request) => {
      requests.push({ ...request, messages: structuredClone([...request.messages]) });
      const next = script.shift();
      if (next === undefined) throw new Error("the script is used up");
      if (next instanceof Error) throw next;
      return next;
    },
    countTokens: async () => ({ unavailable: "no counting here" }),
    describeOverflow: () => null,
  };
  return { providerType: "openai", createProvider: async () => provider };
}

const answer = (text: string, inputTokens = 10): ModelTurnReply => ({
  content: [{ type: "text", text }],
  stopReason: "end_turn",
  model: "m",
  usage: { input_tokens: inputTokens, output_tokens: 5 },
});

let fixture: AgentRunFixture;
beforeEach(() => {
  fixture = createAgentRunFixture({ prefix: "uwf-tool-loop-" });
});
afterEach(() => fixture.remove());

function options(maxTurns = 5) {
  return {
    spec: { model: "m", maxTurns },
    alias: "scripted-api",
    ...fixture.context,
    prompt: "# Role\nYou list.\n\n# Task\nList the files.",
    config: configSchema.parse({
      providers: { mem: { type: "openai", apiKeyEnv: "MEM_KEY" } },
      models: { m: { provider: "mem", model: "m-1", prices: { input: 1, output: 1 } } },
    }),
    environment: { MEM_KEY: "not-a-secret" },
    maxRetries: 2,
  };
}

describe("runToolLoop with any provider behind the adapter", () => {
  it("runs tool rounds, retries what the provider's errors say is retryable, and sums the usage", async () => {
    const requests: ModelTurnRequest[] = [];
    const api = scriptedApi(
      [
        new APIError(503, { message: "busy" }, "503 busy", new Headers({ "retry-after-ms": "10" })),
        {
          content: [{ type: "tool_use", id: "t1", name: "list_files", input: { path: "." } }],
          stopReason: "tool_use",
          model: "m-1",
          usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 50 },
        },
        answer("---\nsummary: none\n---\n", 130),
      ],
      requests,
    );
    const result = await runToolLoop(options(), api);
    expect(result.error).toBeNull();
    expect(result.reply).toBe("---\nsummary: none\n---\n");
    expect(requests).toHaveLength(3);
    expect(requests[2]?.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(requests[2]?.messages[2]?.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "t1" });
    expect(requests[0]?.tools.map((tool) => tool.name)).toContain("run_command");
    expect(result.usage).toEqual({
      inputTokens: 230,
      outputTokens: 25,
      cacheReadTokens: 50,
      cacheWriteTokens: 0,
      costUsd: 0.00026,
    });
    expect(result.stderrTail).toContain("turn 1: 503 error: busy (attempt 1 of 3); retrying in 0.0 s");
  });

  it("fails with the provider's error after a refused request, and at maxTurns", async () => {
    const refused = await runToolLoop(
      options(),
      scriptedApi([new BadRequestError(400, { message: "nope", type: "invalid_request_error" }, "400 nope")], []),
    );
    expect(refused.error).toBe('the model API (provider "mem", model m-1) failed: 400 invalid_request_error: nope');
    const call = { type: "tool_use", id: "t", name: "list_files", input: {} };
    const looping = await runToolLoop(
      options(1),
      scriptedApi([{ content: [call], stopReason: "tool_use", model: "m", usage: {} }], []),
    );
    expect(looping.error).toContain("the agent reached maxTurns (1 model turns)");
  });
});
