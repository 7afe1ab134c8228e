import { describe, expect, it } from "bun:test";
import type { TranscriptMessage } from "../tool-loop/transcript.ts";
import { AGENT_TOOLS } from "../tools/agent-tools.ts";
import { toChatMessages, toChatTools } from "./chat-messages.ts";
import { toApiUsage } from "./openai-provider.ts";
import { readChatStream, toTurnContent } from "./read-chat-stream.ts";

async function* chunks<T>(...items: T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

describe("toChatMessages", () => {
  it("maps the transcript's blocks to Chat Completions messages: tool calls, one tool message per result, text after them", () => {
    const transcript: TranscriptMessage[] = [
      { role: "user", content: [{ type: "text", text: "Do it" }], system: "ignored here" },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "call_1", name: "read_file", input: { path: "a" } },
          { type: "tool_use", id: "call_2", name: "run_command", input: "{not json" },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call_1", content: "text of a" },
          { type: "tool_result", tool_use_id: "call_2", content: "bad input", is_error: true },
          { type: "text", text: "Give your answer now." },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
    ];
    expect(toChatMessages("system prompt", transcript)).toEqual([
      { role: "system", content: "system prompt" },
      { role: "user", content: "Do it" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a"}' } },
          { id: "call_2", type: "function", function: { name: "run_command", arguments: "{not json" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "text of a" },
      { role: "tool", tool_call_id: "call_2", content: "Error: bad input" },
      { role: "user", content: "Give your answer now." },
      { role: "assistant", content: "Done." },
    ]);
  });

  it("offers each tool as a function whose parameters are its input schema", () => {
    const [first] = toChatTools(AGENT_TOOLS);
    expect(first).toEqual({
      type: "function",
      function: {
        name: "read_file",
        description: AGENT_TOOLS[0]?.description ?? "",
        parameters: AGENT_TOOLS[0]?.inputSchema as never,
      },
    });
  });
});

describe("readChatStream and toTurnContent", () => {
  it("puts streamed text and tool-call pieces together, with the final chunk's usage", async () => {
    const summary = await readChatStream(
      chunks(
        { model: "m-1", choices: [{ index: 0, delta: { content: "Let me " } }] },
        {
          choices: [
            {
              index: 0,
              delta: {
                content: "look.",
                tool_calls: [{ index: 0, id: "call_a", function: { name: "list_files", arguments: "" } }],
              },
            },
          ],
        },
        { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"path"' } }] } }] },
        { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ':"."}' } }] } }] },
        { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
        {
          choices: [],
          usage: { prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 } },
        },
      ),
      "asked",
    );
    expect(summary.model).toBe("m-1");
    expect(toTurnContent(summary)).toEqual({
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "call_a", name: "list_files", input: { path: "." } },
      ],
      stopReason: "tool_use",
    });
    expect(toApiUsage(summary.usage)).toEqual({
      input_tokens: 6,
      output_tokens: 5,
      cache_read_input_tokens: 4,
      cache_creation_input_tokens: 0,
    });
  });

  it("maps finish reasons to the loop's stop reasons: a server's `stop` beside tool calls is a tool turn, a lone refusal a refusal", async () => {
    const turn = async (...items: Parameters<typeof chunks>) =>
      toTurnContent(await readChatStream(chunks(...items) as never, "m"));
    expect(
      (await turn({ choices: [{ index: 0, delta: { content: "hi" }, finish_reason: "length" }] })).stopReason,
    ).toBe("max_tokens");
    expect((await turn({ choices: [{ index: 0, delta: { content: "hi" }, finish_reason: "stop" }] })).stopReason).toBe(
      "end_turn",
    );
    const local = await turn({
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, function: { name: "read_file", arguments: "{}" } }] },
          finish_reason: "stop",
        },
      ],
    });
    expect(local).toEqual({
      content: [{ type: "tool_use", id: "call_uwf_1", name: "read_file", input: {} }],
      stopReason: "tool_use",
    });
    expect(
      (await turn({ choices: [{ index: 0, delta: { refusal: "I can't." }, finish_reason: "stop" }] })).stopReason,
    ).toBe("refusal");
  });
});
