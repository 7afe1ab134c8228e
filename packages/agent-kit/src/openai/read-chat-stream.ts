import type { ContentBlock } from "../tool-loop/transcript.ts";

/** The parts of a `chat.completion.chunk` uwf reads. */
export interface ChatChunk {
  model?: string;
  choices?: Array<{
    index?: number;
    delta?: {
      content?: string | null;
      refusal?: string | null;
      tool_calls?: Array<{
        index: number;
        id?: string | null;
        function?: { name?: string | null; arguments?: string | null };
      }>;
    } | null;
    finish_reason?: string | null;
  }>;
  usage?: ChatUsage | null;
}

/** The `usage` of a completion (the final chunk's with `stream_options.include_usage`). */
export interface ChatUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
}

/** A whole streamed completion, put together. */
export interface ChatCompletionSummary {
  model: string;
  text: string;
  refusal: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string | null;
  usage: ChatUsage | null;
}

/**
 * Puts a streamed completion together from its chunks: the first choice's text (and refusal) deltas
 * joined, its tool calls gathered by `index` (the id and name come once, the arguments in pieces), the
 * last finish reason, and the usage of the final chunk. Servers that send the usage on every chunk, or
 * none, are read too.
 */
export async function readChatStream(chunks: AsyncIterable<ChatChunk>, model: string): Promise<ChatCompletionSummary> {
  const summary: ChatCompletionSummary = {
    model,
    text: "",
    refusal: "",
    toolCalls: [],
    finishReason: null,
    usage: null,
  };
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for await (const chunk of chunks) {
    if (typeof chunk.model === "string" && chunk.model !== "") summary.model = chunk.model;
    if (chunk.usage !== undefined && chunk.usage !== null) summary.usage = chunk.usage;
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (choice === undefined) continue;
    const delta = choice.delta ?? {};
    if (typeof delta.content === "string") summary.text += delta.content;
    if (typeof delta.refusal === "string") summary.refusal += delta.refusal;
    for (const piece of delta.tool_calls ?? []) {
      const call = calls.get(piece.index) ?? { id: "", name: "", arguments: "" };
      if (typeof piece.id === "string" && piece.id !== "") call.id = piece.id;
      if (typeof piece.function?.name === "string") call.name += piece.function.name;
      if (typeof piece.function?.arguments === "string") call.arguments += piece.function.arguments;
      calls.set(piece.index, call);
    }
    if (typeof choice.finish_reason === "string") summary.finishReason = choice.finish_reason;
  }
  summary.toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  return summary;
}

/** The Chat Completions finish reasons in the shared loop's (the Messages API's) words. */
const STOP_REASONS: Record<string, string> = {
  stop: "end_turn",
  tool_calls: "tool_use",
  function_call: "tool_use",
  length: "max_tokens",
  content_filter: "refusal",
};

/**
 * A completion as the shared loop's turn: its text as a text block and each tool call as a `tool_use`
 * block (the arguments parsed; arguments that are not JSON stay a string, which the tool refuses and
 * the model sees). A turn with tool calls is a `tool_use` turn even where a server says `stop`, as some
 * local servers do; a tool call without an id gets one, as the tool result must answer an id.
 */
export function toTurnContent(summary: ChatCompletionSummary): { content: ContentBlock[]; stopReason: string | null } {
  const content: ContentBlock[] = [];
  const text = summary.text !== "" ? summary.text : summary.refusal;
  if (text !== "") content.push({ type: "text", text });
  summary.toolCalls.forEach((call, index) => {
    content.push({
      type: "tool_use",
      id: call.id === "" ? `call_uwf_${index + 1}` : call.id,
      name: call.name,
      input: parseArguments(call.arguments),
    });
  });
  const mapped = summary.finishReason === null ? null : (STOP_REASONS[summary.finishReason] ?? summary.finishReason);
  // OpenAI's refusals come as `refusal` text beside a plain `stop`.
  const refused = summary.refusal !== "" && summary.text === "" && summary.toolCalls.length === 0;
  const stopReason = refused ? "refusal" : summary.toolCalls.length > 0 && mapped === "end_turn" ? "tool_use" : mapped;
  return { content, stopReason };
}

function parseArguments(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
