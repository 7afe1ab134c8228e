import { describe, expect, it } from "bun:test";
import { checkMessagesRequest } from "./check-messages-request.ts";
import { estimateFakeInputTokens } from "./estimate-fake-input-tokens.ts";

const OPTIONS = { endpoint: "messages", contextWindow: 200_000 } as const;
const TOOL = {
  name: "read_file",
  description: "Reads a file.",
  input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};
const CALL = { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.txt" } };
const RESULT = { type: "tool_result", tool_use_id: "toolu_1", content: "hello" };

/** A request the real API accepts: a tool round trip and a final question. */
function validRequest(): Record<string, unknown> {
  return {
    model: "claude-sonnet-5-5",
    max_tokens: 1024,
    system: [{ type: "text", text: "You help.", cache_control: { type: "ephemeral" } }],
    tools: [TOOL],
    messages: [
      { role: "user", content: [{ type: "text", text: "Read a.txt" }] },
      { role: "assistant", content: [{ type: "text", text: "Reading." }, CALL] },
      { role: "user", content: [RESULT] },
      { role: "assistant", content: [{ type: "text", text: "It says hello." }] },
      { role: "user", content: [{ type: "text", text: "Thanks.", cache_control: { type: "ephemeral" } }] },
    ],
  };
}

function withMessages(...messages: unknown[]): Record<string, unknown> {
  return { ...validRequest(), messages };
}

const user = (content: unknown) => ({ role: "user", content });
const assistant = (content: unknown) => ({ role: "assistant", content });
const marker = { type: "ephemeral" };

describe("checkMessagesRequest", () => {
  it("accepts a well-formed request with tools, tool results and cache breakpoints", () => {
    expect(checkMessagesRequest(validRequest(), OPTIONS)).toBeNull();
  });

  it("accepts mid-conversation system messages between the turns (as Claude Code sends them)", () => {
    const system = { role: "system", content: [{ type: "text", text: "# Environment" }] };
    expect(
      checkMessagesRequest(withMessages(user("Hi"), system, assistant("Hello."), user("Bye")), OPTIONS),
    ).toBeNull();
    expect(
      checkMessagesRequest(withMessages(user("Hi"), { ...system, content: [{ type: "text", text: "" }] }), OPTIONS),
    ).toBe("messages.1.content: text content blocks must be non-empty");
  });

  // Each rule, with the request the real Messages API refuses and the message it sends.
  const rejected: Array<[string, Record<string, unknown>, string]> = [
    ["a request without model", { ...validRequest(), model: undefined }, "model: Field required"],
    ["a request without max_tokens", { ...validRequest(), max_tokens: undefined }, "max_tokens: Field required"],
    [
      "a tool name outside the pattern",
      { ...validRequest(), tools: [{ ...TOOL, name: "read.file" }] },
      "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
    ],
    ["two tools with one name", { ...validRequest(), tools: [TOOL, TOOL] }, "tools: Tool names must be unique."],
    [
      "an input_schema property key outside the pattern ($status)",
      {
        ...validRequest(),
        tools: [{ ...TOOL, input_schema: { type: "object", properties: { $status: { type: "string" } } } }],
      },
      "tools.0.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'",
    ],
    [
      "an input_schema property key longer than 64 characters, nested",
      {
        ...validRequest(),
        tools: [
          {
            ...TOOL,
            input_schema: {
              type: "object",
              properties: { outer: { type: "object", properties: { ["k".repeat(65)]: { type: "string" } } } },
            },
          },
        ],
      },
      "tools.0.custom.input_schema.properties.outer.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'",
    ],
    [
      "an input_schema that is not an object schema",
      { ...validRequest(), tools: [{ ...TOOL, input_schema: { type: "string" } }] },
      "tools.0.custom.input_schema.type: Input should be 'object'",
    ],
    [
      "a forced tool_choice naming no tool of the request",
      { ...validRequest(), tool_choice: { type: "tool", name: "report_fields" } },
      "tool_choice.name: Tool 'report_fields' not found in the request's tools",
    ],
    ["no messages", withMessages(), "messages: at least one message is required"],
    [
      "a role the API does not know",
      withMessages(user("Hi"), { role: "tool", content: "x" }),
      "messages.1.role: Input should be 'user', 'assistant' or 'system'",
    ],
    [
      "a conversation that starts with the assistant",
      withMessages(assistant("Hi."), user("Hello")),
      'messages: first message must use the "user" role',
    ],
    [
      "two user turns in a row",
      withMessages(user("One"), user("Two")),
      'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row',
    ],
    [
      "an empty message",
      withMessages(user([]), assistant("Hi.")),
      "messages.0: all messages must have non-empty content except for the optional final assistant message",
    ],
    [
      "an empty text block",
      withMessages(user([{ type: "text", text: "" }])),
      "messages: text content blocks must be non-empty",
    ],
    [
      "a tool_use whose tool_result is not in the next message",
      withMessages(user("Read a.txt"), assistant([CALL]), user("Go on")),
      "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    ],
    [
      "a conversation that ends with an unanswered tool_use",
      withMessages(user("Read a.txt"), assistant([CALL])),
      "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    ],
    [
      "a tool_result answering no tool_use of the message before",
      withMessages(user("Read a.txt"), assistant("Sure."), user([RESULT])),
      "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
    ],
    [
      "a block with a field the API does not know",
      withMessages(user([{ type: "text", text: "Hi", parsed_output: null }])),
      "messages.0.content.0.text.parsed_output: Extra inputs are not permitted",
    ],
    [
      "a final assistant turn ending with whitespace",
      withMessages(user("Hi"), assistant([{ type: "text", text: "Hello \n" }])),
      "messages: final assistant content cannot end with trailing whitespace",
    ],
    [
      "an empty system text block",
      { ...validRequest(), system: [{ type: "text", text: "" }] },
      "system: text content blocks must be non-empty",
    ],
    [
      "five cache breakpoints",
      withMessages(
        user([{ type: "text", text: "1", cache_control: marker }]),
        assistant([{ type: "text", text: "2", cache_control: marker }]),
        user([{ type: "text", text: "3", cache_control: marker }]),
        assistant([{ type: "text", text: "4", cache_control: marker }]),
      ),
      "A maximum of 4 blocks with cache_control may be provided. Found 5.",
    ],
  ];
  it.each(rejected)("refuses %s, with the real API's message", (_name, body, message) => {
    expect(checkMessagesRequest(body, OPTIONS)).toBe(message);
  });

  it("refuses a prompt over the context window with the real 400's message; count_tokens counts it", () => {
    const body = validRequest();
    const tokens = estimateFakeInputTokens(body);
    expect(checkMessagesRequest(body, { endpoint: "messages", contextWindow: tokens })).toBeNull();
    expect(checkMessagesRequest(body, { endpoint: "messages", contextWindow: tokens - 1 })).toBe(
      `prompt is too long: ${tokens} tokens > ${tokens - 1} maximum`,
    );
    expect(
      checkMessagesRequest({ ...body, max_tokens: undefined }, { endpoint: "count_tokens", contextWindow: 1 }),
    ).toBeNull();
  });

  it("counts tokens without the cache breakpoints, so counting and sending agree", () => {
    const body = validRequest();
    const stripped = JSON.parse(JSON.stringify(body, (key, value) => (key === "cache_control" ? undefined : value)));
    expect(estimateFakeInputTokens(body)).toBe(estimateFakeInputTokens(stripped));
    expect(estimateFakeInputTokens({ ...body, model: "other", max_tokens: 1 })).toBe(estimateFakeInputTokens(body));
  });
});
