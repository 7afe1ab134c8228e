import { apiErrorMessage, summarizeApiError } from "../tool-loop/describe-api-error.ts";
import type { ModelProvider, ModelTurnReply, ModelTurnRequest } from "../tool-loop/model-provider.ts";
import type { CreateProviderOptions, ToolLoopApi } from "../tool-loop/set-up-tool-loop-run.ts";
import { toChatMessages, toChatTools } from "./chat-messages.ts";
import { createOpenaiClient, isOpenaiPlatform } from "./create-openai-client.ts";
import { type ChatChunk, type ChatUsage, readChatStream, toTurnContent } from "./read-chat-stream.ts";

/** What servers say when a request is over the context window: OpenAI's code, and vLLM's and llama.cpp's words. */
const OVERFLOW_CODES = new Set(["context_length_exceeded", "string_above_max_length"]);
const OVERFLOW_WORDS = /maximum context length|context length|context window|context size|too many tokens/i;

/** The built-in `openai` agent's API for the shared tool loop. */
export const OPENAI_API: ToolLoopApi = { providerType: "openai", createProvider: createOpenaiProvider };

/**
 * The Chat Completions API behind the shared loop's adapter: each turn one streamed request
 * (`stream_options.include_usage`, so the last chunk has the usage) put together by `readChatStream`.
 * The API has no token count, so a stored conversation is measured by the loop's estimate, and no
 * cache breakpoints: servers that cache prompts (OpenAI does, automatically) do so by prefix, which
 * uwf keeps stable by sending the stored conversation as it was.
 */
export async function createOpenaiProvider(options: CreateProviderOptions): Promise<ModelProvider> {
  const { settings } = options;
  const { client, sdk } = await createOpenaiClient({
    apiKey: options.apiKey,
    baseUrl: settings.baseUrl,
    maxRetries: 0,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  const limitField = isOpenaiPlatform(settings.baseUrl) ? "max_completion_tokens" : "max_tokens";
  return {
    errors: sdk,
    requestTurn: async (request: ModelTurnRequest): Promise<ModelTurnReply> => {
      const stream = await client.chat.completions.create(
        {
          model: settings.model,
          messages: toChatMessages(request.system, request.messages),
          ...(request.tools.length === 0 ? {} : { tools: toChatTools(request.tools) }),
          [limitField]: settings.maxTokens,
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal: request.signal },
      );
      const summary = await readChatStream(stream as AsyncIterable<ChatChunk>, settings.model);
      const { content, stopReason } = toTurnContent(summary);
      return {
        content,
        stopReason,
        ...(stopReason === "refusal" && summary.refusal !== ""
          ? { stopDetails: { explanation: summary.refusal } }
          : {}),
        model: summary.model,
        usage: toApiUsage(summary.usage),
      };
    },
    countTokens: async () => ({ unavailable: "the Chat Completions API does not count tokens" }),
    describeOverflow: (error) => {
      if (!(error instanceof sdk.APIError)) return null;
      const code = typeof error.code === "string" ? error.code : "";
      if (OVERFLOW_CODES.has(code)) return `${error.status ?? "mid-stream"} ${code}: ${apiErrorMessage(error)}`;
      return error.status === 400 && OVERFLOW_WORDS.test(error.message) ? summarizeApiError(error, sdk) : null;
    },
  };
}

/** The completion's usage in the Messages API's terms: cached prompt tokens apart from the others. */
export function toApiUsage(usage: ChatUsage | null) {
  const prompt = usage?.prompt_tokens ?? 0;
  const cached = Math.min(usage?.prompt_tokens_details?.cached_tokens ?? 0, prompt);
  return {
    input_tokens: prompt - cached,
    output_tokens: usage?.completion_tokens ?? 0,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
  };
}
