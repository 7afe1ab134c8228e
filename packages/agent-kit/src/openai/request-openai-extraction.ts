import type { ExtractionCall, ExtractionRequest } from "../extract/extraction-request.ts";
import { callWithApiRetries } from "../tool-loop/call-with-api-retries.ts";
import { computeUsage } from "../tool-loop/compute-usage.ts";
import { describeApiError } from "../tool-loop/describe-api-error.ts";
import { createOpenaiClient, isOpenaiPlatform } from "./create-openai-client.ts";
import { toApiUsage } from "./openai-provider.ts";

/**
 * The Chat Completions part of `extractWithModel`: one request whose `tool_choice` forces the
 * function, retried as the built-in agent's requests are; the function's arguments, parsed, are the
 * extracted fields. Arguments that are not JSON are a problem, not an exception.
 */
export async function requestOpenaiExtraction(request: ExtractionRequest): Promise<ExtractionCall> {
  const { settings } = request;
  const { client, sdk } = await createOpenaiClient({
    apiKey: request.apiKey,
    baseUrl: settings.baseUrl,
    maxRetries: 0,
  });
  const limitField = isOpenaiPlatform(settings.baseUrl) ? "max_completion_tokens" : "max_tokens";
  const answered = await callWithApiRetries(
    () =>
      client.chat.completions.create(
        {
          model: settings.model,
          messages: [
            { role: "system", content: request.system },
            { role: "user", content: request.user },
          ],
          tools: [
            {
              type: "function",
              function: {
                name: request.toolName,
                description: request.toolDescription,
                parameters: request.inputSchema,
              },
            },
          ],
          tool_choice: { type: "function", function: { name: request.toolName } },
          [limitField]: request.maxTokens,
        },
        request.signal === undefined ? {} : { signal: request.signal },
      ),
    { sdk, maxRetries: request.maxRetries, ...(request.signal === undefined ? {} : { signal: request.signal }) },
  );
  if (!answered.success) {
    return {
      success: false,
      problem: describeApiError(answered.error, sdk, settings, answered.attempts).message,
      usage: null,
    };
  }
  const completion = answered.value;
  const usage = computeUsage(toApiUsage(completion.usage ?? null), settings.prices);
  const call = completion.choices[0]?.message.tool_calls?.find(
    (candidate) => candidate.type === "function" && candidate.function.name === request.toolName,
  );
  if (call === undefined || call.type !== "function") {
    return { success: false, problem: `the extraction model did not call ${request.toolName}`, usage };
  }
  try {
    return { success: true, input: JSON.parse(call.function.arguments), usage };
  } catch {
    return { success: false, problem: `the extraction model's ${request.toolName} arguments are not JSON`, usage };
  }
}
