import { callWithApiRetries } from "../tool-loop/call-with-api-retries.ts";
import { summarizeApiError } from "../tool-loop/describe-api-error.ts";
import type { ModelProvider } from "../tool-loop/model-provider.ts";
import type { CreateProviderOptions, ToolLoopApi } from "../tool-loop/set-up-tool-loop-run.ts";
import { toolDefinitions } from "../tools/agent-tools.ts";
import { toApiMessages, toSystemBlocks } from "./anthropic-messages.ts";
import { createAnthropicClient } from "./create-anthropic-client.ts";
import { requestAnthropicTurn } from "./request-anthropic-turn.ts";

/** The Messages API's answer to a prompt over the context window. */
const PROMPT_TOO_LONG = /prompt is too long/i;

/** The built-in `anthropic` agent's API for the shared tool loop. */
export const ANTHROPIC_API: ToolLoopApi = { providerType: "anthropic", createProvider: createAnthropicProvider };

/** The Messages API behind the shared loop's adapter: streamed turns, `count_tokens`, prompt caching. */
export async function createAnthropicProvider(options: CreateProviderOptions): Promise<ModelProvider> {
  const { settings } = options;
  const { client, sdk } = await createAnthropicClient({
    apiKey: options.apiKey,
    baseUrl: settings.baseUrl,
    maxRetries: 0,
    requestTimeoutMs: options.requestTimeoutMs,
  });
  return {
    errors: sdk,
    requestTurn: (request) =>
      requestAnthropicTurn(
        { client, model: settings.model, maxTokens: settings.maxTokens, onWarning: options.onWarning },
        request,
      ),
    countTokens: async (request, retries) => {
      const counted = await callWithApiRetries(
        () =>
          client.messages.countTokens(
            {
              model: settings.model,
              system: toSystemBlocks(request.system),
              messages: toApiMessages(request.messages, []) as unknown as Parameters<
                typeof client.messages.countTokens
              >[0]["messages"],
              tools: toolDefinitions(request.tools),
            },
            { signal: request.signal },
          ),
        { sdk, ...retries },
      );
      if (counted.success) return { tokens: counted.value.input_tokens };
      const summary = summarizeApiError(counted.error, sdk);
      return counted.error instanceof sdk.BadRequestError ? { refused: summary } : { unavailable: summary };
    },
    describeOverflow: (error) =>
      error instanceof sdk.BadRequestError && PROMPT_TOO_LONG.test(error.message)
        ? summarizeApiError(error, sdk)
        : null,
  };
}
