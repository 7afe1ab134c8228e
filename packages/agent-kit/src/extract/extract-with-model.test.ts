import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { configSchema } from "@uwf/protocol";
import {
  type FakeAnthropicServer,
  fakeChatToolCallReply,
  fakeErrorReply,
  fakeTextReply,
  fakeToolUseReply,
  startFakeAnthropicServer,
  startFakeOpenaiServer,
} from "../test/index.ts";
import { EXTRACTION_TOOL_NAME, type ExtractWithModelResult, extractWithModel } from "./extract-with-model.ts";

const KEY_VARIABLE = "UWF_TEST_EXTRACTION_KEY";
const schema = {
  type: "object",
  properties: { approved: { type: "boolean" }, comments: { type: "string" } },
  required: ["approved"],
};
let server: FakeAnthropicServer;
beforeEach(() => {
  server = startFakeAnthropicServer({ apiKey: "test-key-not-secret" });
});
afterEach(() => server.close());

function extract(reply: string, extractionModel: string | null = "haiku") {
  return extractWithModel(options(reply, extractionModel));
}

function options(reply: string, extractionModel: string | null = "haiku") {
  return {
    config: configSchema.parse({
      providers: { fake: { baseUrl: server.url, apiKeyEnv: KEY_VARIABLE } },
      models: { haiku: { provider: "fake", model: "claude-haiku-4-5", prices: { input: 1, output: 5 } } },
      ...(extractionModel === null ? {} : { extractionModel }),
    }),
    home: "/nonexistent-uwf-home",
    reply,
    schema,
    roleName: "reviewer",
    environment: { [KEY_VARIABLE]: "test-key-not-secret" },
    maxRetries: 0,
  };
}

/** What extractWithModel returns for `fields` extracted from `body` by `model`: usage priced, no cache tokens. */
function extracted(
  body: string,
  fields: Record<string, unknown>,
  model: string,
  usage: { inputTokens: number; outputTokens: number; costUsd: number },
): ExtractWithModelResult {
  return { success: true, fields, body, usage: { ...usage, cacheReadTokens: 0, cacheWriteTokens: 0 }, model };
}

describe("extractWithModel", () => {
  it("forces a tool call whose input schema is the role's schema and validates its input", async () => {
    server.enqueue(
      fakeToolUseReply(
        { name: EXTRACTION_TOOL_NAME, input: { approved: false, comments: "Add tests." } },
        { usage: { input_tokens: 400, output_tokens: 40 } },
      ),
    );
    const result = await extract("Looks fine but add tests. Not approved yet.");
    expect(result).toEqual(
      extracted(
        "Looks fine but add tests. Not approved yet.",
        { approved: false, comments: "Add tests." },
        "claude-haiku-4-5",
        { inputTokens: 400, outputTokens: 40, costUsd: 0.0006 },
      ),
    );
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.model).toBe("claude-haiku-4-5");
    expect(body.tool_choice).toEqual({ type: "tool", name: EXTRACTION_TOOL_NAME });
    expect((body.tools as Array<{ input_schema: unknown }>)[0]?.input_schema).toEqual(schema);
    expect(JSON.stringify(body.messages)).toContain("Not approved yet.");
  });

  it("reports fields that do not fit the schema", async () => {
    server.enqueue(fakeToolUseReply({ name: EXTRACTION_TOOL_NAME, input: { approved: "maybe" } }));
    const result = await extract("Hmm.");
    expect(result.success).toBe(false);
    if (!result.success) expect(result.problem).toStartWith('the extracted fields are invalid: field "approved"');
  });

  it("reports a model that does not call the tool, and API errors", async () => {
    server.enqueue(fakeTextReply("no tool"), fakeErrorReply("overloaded_error"));
    expect(await extract("x")).toMatchObject({
      success: false,
      problem: `the extraction model did not call ${EXTRACTION_TOOL_NAME}`,
    });
    const failed = await extract("x");
    expect(failed.success).toBe(false);
    if (!failed.success) expect(failed.problem).toContain("529 overloaded_error: Overloaded");
  });

  it("sends $status under the wire-safe name status, which the strict fake (like the API) accepts, and maps it back", async () => {
    const withStatus = {
      type: "object",
      properties: {
        $status: { type: "string", enum: ["approved", "rejected"], "x-uwf-convention": true },
        comments: { type: "string" },
      },
      required: ["$status"],
    };
    server.enqueue(
      fakeToolUseReply({ name: EXTRACTION_TOOL_NAME, input: { status: "rejected", comments: "No tests." } }),
    );
    const result = await extractWithModel({
      config: configSchema.parse({
        providers: { fake: { baseUrl: server.url, apiKeyEnv: KEY_VARIABLE } },
        models: { haiku: { provider: "fake", model: "claude-haiku-4-5" } },
        extractionModel: "haiku",
      }),
      home: "/nonexistent-uwf-home",
      reply: "Rejected: no tests.",
      schema: withStatus,
      roleName: "reviewer",
      environment: { [KEY_VARIABLE]: "test-key-not-secret" },
      maxRetries: 0,
    });
    expect(result).toMatchObject({ success: true, fields: { $status: "rejected", comments: "No tests." } });
    expect(server.rejectedRequests()).toEqual([]);
    const tool = (server.requests[0]?.body as { tools: Array<{ input_schema: unknown }> } | undefined)?.tools[0];
    expect(tool?.input_schema).toEqual({
      type: "object",
      properties: { status: { type: "string", enum: ["approved", "rejected"] }, comments: { type: "string" } },
      required: ["status"],
    });
  });

  it("retries an overload with uwf's backoff and names the attempts when it gives up", async () => {
    server.enqueue(
      fakeErrorReply("overloaded_error", { retryAfter: "0.01" }),
      fakeToolUseReply({ name: EXTRACTION_TOOL_NAME, input: { approved: true } }),
    );
    const recovered = await extractWithModel({ ...options("x"), maxRetries: 1 });
    expect(recovered.success).toBe(true);
    server.enqueue(
      fakeErrorReply("overloaded_error", { retryAfter: "0.01" }),
      fakeErrorReply("overloaded_error", { retryAfter: "0.01" }),
    );
    const failed = await extractWithModel({ ...options("x"), maxRetries: 1 });
    expect(failed.success).toBe(false);
    if (!failed.success) expect(failed.problem).toContain("failed after 2 attempts: 529 overloaded_error: Overloaded");
  });

  it("is skipped without extractionModel", async () => {
    expect(await extract("x", null)).toEqual({
      success: false,
      problem: "no extractionModel in config.yaml",
      usage: null,
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe("extractWithModel with a model on an openai provider", () => {
  it("forces a function call on the Chat Completions API and validates its arguments", async () => {
    const chat = startFakeOpenaiServer({ apiKey: "test-key-not-secret" });
    try {
      chat.enqueue(
        fakeChatToolCallReply(
          { name: EXTRACTION_TOOL_NAME, arguments: { approved: true, comments: "Ship it." } },
          { usage: { prompt_tokens: 300, completion_tokens: 20 } },
        ),
        fakeChatToolCallReply({ name: EXTRACTION_TOOL_NAME, arguments: "{broken" }),
      );
      const config = configSchema.parse({
        providers: { local: { type: "openai", baseUrl: chat.url, apiKeyEnv: KEY_VARIABLE } },
        models: { qwen: { provider: "local", model: "qwen3-8b", prices: { input: 1, output: 5 } } },
        extractionModel: "qwen",
      });
      const result = await extractWithModel({ ...options("Approved: ship it."), config });
      expect(result).toEqual(
        extracted("Approved: ship it.", { approved: true, comments: "Ship it." }, "qwen3-8b", {
          inputTokens: 300,
          outputTokens: 20,
          costUsd: 0.0004,
        }),
      );
      const body = chat.completionRequests()[0]?.body as Record<string, unknown>;
      expect(body.tool_choice).toEqual({ type: "function", function: { name: EXTRACTION_TOOL_NAME } });
      expect(body.max_tokens).toBe(4_096);
      const broken = await extractWithModel({ ...options("Approved."), config });
      expect(broken).toMatchObject({
        success: false,
        problem: `the extraction model's ${EXTRACTION_TOOL_NAME} arguments are not JSON`,
      });
      expect(chat.rejectedRequests()).toEqual([]);
    } finally {
      await chat.close();
    }
  });
});
