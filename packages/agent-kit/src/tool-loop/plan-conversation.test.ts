import { describe, expect, it } from "bun:test";
import { type PlanConversationOptions, planConversation, type TokenCount } from "./plan-conversation.ts";
import { splitPrompt } from "./split-prompt.ts";

const PROMPT = "# Your role: writer\n\nYou write.\n\n# Task\n\nWrite notes.\n\n# Your next step\n\nGo on.\n";
const RETRY = "# Your previous reply could not be used\n\nProblem: no frontmatter\n";
const CALL = { type: "tool_use", id: "toolu_1", name: "list_files", input: {} };

/** A finished visit: a tool round trip, then the answer. */
const STORED = [
  { role: "user", content: [{ type: "text", text: "# Task\n\nWrite notes." }], system: "old system" },
  { role: "assistant", content: [CALL], stopReason: "tool_use" },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a.txt" }] },
  { role: "assistant", content: [{ type: "text", text: "---\nsummary: first\n---" }], stopReason: "end_turn" },
];

function plan(overrides: Partial<PlanConversationOptions> & { tokens?: TokenCount } = {}) {
  const notes: string[] = [];
  const counted: number[] = [];
  const { tokens, ...rest } = overrides;
  const result = planConversation({
    previous: STORED,
    prompt: splitPrompt(PROMPT, "/work"),
    model: "claude-test",
    contextWindow: 10_000,
    maxTokens: 2_000,
    note: (line) => notes.push(line),
    countTokens: async (_system, messages) => {
      counted.push(messages.length);
      return tokens ?? { tokens: 1_000 };
    },
    ...rest,
  });
  return { result, notes, counted };
}

describe("planConversation", () => {
  it("continues a well-formed conversation that fits half of the window beside maxTokens, under the new system prompt", async () => {
    const { result, notes, counted } = plan({ tokens: { tokens: 4_000 } });
    const planned = await result;
    if (!planned.success) throw new Error(planned.problem);
    expect(planned.continued).toBe(4);
    expect(planned.freshStart).toBeNull();
    expect(planned.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(planned.system).toContain("# Your role: writer");
    expect(planned.messages[0]?.system).toBe(planned.system);
    expect(counted).toEqual([5]);
    expect(notes).toEqual(["continuing 4 earlier messages (4000 tokens)"]);
  });

  it("sends a continued conversation the continuation prompt, and a fresh one the whole-thread prompt", async () => {
    const continuation = splitPrompt(PROMPT.replace("Write notes.", "Write notes.\n\n# History\n\nSince."), "/work");
    const continued = await plan({ continuation }).result;
    if (!continued.success) throw new Error(continued.problem);
    expect(JSON.stringify(continued.messages.at(-1))).toContain("Since.");
    const fresh = await plan({ continuation, tokens: { tokens: 9_000 } }).result;
    if (!fresh.success) throw new Error(fresh.problem);
    expect(fresh.continued).toBe(0);
    expect(JSON.stringify(fresh.messages)).not.toContain("Since.");
  });

  it("starts afresh, saying why, when the conversation takes more than half of what the window leaves", async () => {
    const { result, notes } = plan({ tokens: { tokens: 4_001 } });
    const planned = await result;
    if (!planned.success) throw new Error(planned.problem);
    const reason =
      "the stored conversation and the new prompt take 4001 tokens, more than half (4000) of what claude-test's 10000-token context window leaves beside maxTokens (2000)";
    expect(planned).toMatchObject({ continued: 0, freshStart: reason });
    expect(planned.messages).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: expect.stringMatching(/^# Task/) }],
        system: planned.system,
        freshStart: reason,
      },
    ]);
    expect(notes).toEqual([`starting a fresh conversation: ${reason}`]);
  });

  const malformed: Array<[string, unknown[], string]> = [
    [
      "a tool_use stored as the answer (a max_tokens stop)",
      [
        ...STORED.slice(0, 3),
        {
          role: "assistant",
          content: [
            { type: "text", text: "Let me" },
            { ...CALL, id: "toolu_2" },
          ],
          stopReason: "max_tokens",
        },
      ],
      "message 4 calls toolu_2 without a tool_result in the next message",
    ],
    [
      "an answer cut off at max_tokens",
      [STORED[0], { role: "assistant", content: [{ type: "text", text: "Half" }], stopReason: "max_tokens" }],
      "its last turn was cut off at max_tokens",
    ],
    [
      "a refused turn",
      [STORED[0], { role: "assistant", content: [{ type: "text", text: "Sure.." }], stopReason: "refusal" }],
      "its last turn was refused (stop_reason refusal), and a refused conversation must not be continued",
    ],
    ["an empty turn", [STORED[0], { role: "assistant", content: [], stopReason: "end_turn" }], "message 2 is empty"],
    ["two user turns in a row", [STORED[0], STORED[0], STORED[3]], "messages 1 and 2 are both user turns"],
    ["a conversation starting with the model", STORED.slice(1), "it does not start with a user message"],
    [
      "a stray tool_result",
      [STORED[0], STORED[3], STORED[2], STORED[3]],
      "message 3 answers toolu_1, which the message before did not call",
    ],
  ];
  it.each(malformed)("starts afresh, without counting, from %s", async (_name, previous, problem) => {
    const { result, counted } = plan({ previous });
    const planned = await result;
    expect(planned).toMatchObject({
      success: true,
      continued: 0,
      freshStart: `the stored conversation is malformed: ${problem}`,
    });
    expect(counted).toEqual([]);
  });

  it("starts afresh when the API refuses to count the conversation, and estimates when it cannot count", async () => {
    const refused = await plan({ tokens: { refused: "400 invalid_request_error: messages.1: bad" } }).result;
    expect(refused).toMatchObject({
      freshStart: "the API refuses the stored conversation: 400 invalid_request_error: messages.1: bad",
    });
    const { result, notes } = plan({ tokens: { unavailable: "404 not_found_error: no route" } });
    expect(await result).toMatchObject({ success: true, continued: 4 });
    expect(notes[0]).toMatch(
      /^cannot count tokens \(404 not_found_error: no route\); estimated \d+ from the characters$/,
    );
  });

  it("keeps the stored system prompt for a retry prompt, and fails when a retry cannot continue", async () => {
    const retry = await plan({ prompt: splitPrompt(RETRY, "/work") }).result;
    expect(retry).toMatchObject({ success: true, system: "old system", continued: 4 });
    const stuck = await plan({ prompt: splitPrompt(RETRY, "/work"), tokens: { tokens: 9_000 } }).result;
    expect(stuck.success).toBe(false);
    if (!stuck.success) expect(stuck.problem).toEndWith("and a retry prompt has no task to start afresh from");
  });

  it("starts a first visit without counting", async () => {
    const { result, counted } = plan({ previous: null });
    expect(await result).toMatchObject({ success: true, continued: 0, freshStart: null });
    expect(counted).toEqual([]);
  });
});
