import type { FakeCompletion } from "./build-fake-completion.ts";

/** An error chunk to end a stream with. */
export interface FakeChatStreamError {
  message: string;
  type: string;
  code: string;
}

/**
 * A completion as the Chat Completions API streams it, each a `data:` line of server-sent events:
 * a first chunk with the role, the text in pieces, each tool call's id and name and then its
 * arguments in pieces, a last chunk with the finish reason, with `includeUsage` a chunk with no
 * choices and the usage (every other chunk then has `usage: null`), and `data: [DONE]`. With
 * `error`, the text so far and then an error chunk end the stream instead.
 */
export function encodeChatChunks(
  completion: FakeCompletion,
  includeUsage: boolean,
  error?: FakeChatStreamError,
): string[] {
  const choice = completion.choices[0];
  const base = {
    id: completion.id,
    object: "chat.completion.chunk",
    created: completion.created,
    model: completion.model,
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: unknown[] = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of pieces(choice?.message.content ?? "")) chunks.push(chunk({ content: piece }));
  for (const piece of pieces(choice?.message.refusal ?? "")) chunks.push(chunk({ refusal: piece }));
  if (error !== undefined) {
    chunks.push({ error: { message: error.message, type: error.type, param: null, code: error.code } });
    return chunks.map(encode);
  }
  for (const [index, call] of (choice?.message.tool_calls ?? []).entries()) {
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
      }),
    );
    for (const piece of pieces(call.function.arguments)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  chunks.push(chunk({}, choice?.finish_reason ?? "stop"));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: completion.usage });
  return [...chunks.map(encode), "data: [DONE]\n\n"];
}

function encode(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/** Up to three pieces, as a server sends text in several deltas. */
function pieces(text: string): string[] {
  if (text === "") return [];
  const size = Math.max(1, Math.ceil(text.length / 3));
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result;
}
