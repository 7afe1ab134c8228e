import type { FakeChatMessageReply } from "./fake-chat-replies.ts";

/** A `chat.completion` as the fake sends it (and as its chunks add up to). */
export interface FakeCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: {
      role: "assistant";
      content: string | null;
      refusal: string | null;
      tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
    };
    finish_reason: string;
    logprobs: null;
  }>;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_tokens_details: { cached_tokens: number };
  };
}

export interface BuildFakeCompletionOptions {
  /** The request's model. */
  model: string;
  /** The request's estimated input tokens. */
  promptTokens: number;
  /** `max_completion_tokens` or `max_tokens`, or null. */
  limit: number | null;
  nextCompletionId: () => string;
  nextCallId: () => string;
}

/**
 * The completion for a scripted reply. The reply's size is four characters a token; one over the
 * request's output limit is cut there, as the real API cuts it: the text up to the limit, no tool
 * call, finish reason `length`, `completion_tokens` the limit.
 */
export function buildFakeCompletion(reply: FakeChatMessageReply, options: BuildFakeCompletionOptions): FakeCompletion {
  let content = reply.content ?? null;
  let calls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? options.nextCallId(),
    type: "function" as const,
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  const size =
    (content ?? "").length +
    (reply.refusal ?? "").length +
    calls.reduce((sum, call) => sum + call.function.arguments.length + call.function.name.length, 0);
  let completionTokens = Math.ceil(size / 4);
  let finishReason: string = reply.finishReason ?? (calls.length > 0 ? "tool_calls" : "stop");
  if (options.limit !== null && completionTokens > options.limit) {
    content = (content ?? "").slice(0, options.limit * 4);
    calls = [];
    completionTokens = options.limit;
    finishReason = "length";
  }
  const promptTokens = reply.usage?.prompt_tokens ?? options.promptTokens;
  const outputTokens = reply.usage?.completion_tokens ?? completionTokens;
  return {
    id: options.nextCompletionId(),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: reply.model ?? options.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content,
          refusal: reply.refusal ?? null,
          ...(calls.length === 0 ? {} : { tool_calls: calls }),
        },
        finish_reason: finishReason,
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: outputTokens,
      total_tokens: promptTokens + outputTokens,
      prompt_tokens_details: { cached_tokens: reply.usage?.cached_tokens ?? 0 },
    },
  };
}
