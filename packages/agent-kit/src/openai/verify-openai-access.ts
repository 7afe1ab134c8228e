import { callWithApiRetries } from "../tool-loop/call-with-api-retries.ts";
import { describeApiError } from "../tool-loop/describe-api-error.ts";
import type { ModelSettings } from "../tool-loop/resolve-model-settings.ts";
import { createOpenaiClient, isOpenaiPlatform } from "./create-openai-client.ts";

/** A few tokens: OpenAI's reasoning models may spend one before any text, and a limit of 1 can be refused. */
const CHECK_MAX_TOKENS = 16;

export interface VerifyOpenaiAccessOptions {
  settings: ModelSettings;
  apiKey: string;
  signal?: AbortSignal | undefined;
}

/**
 * One small chat completion to an OpenAI-compatible server, to check its URL, the key and the model
 * name (see `verifyModelAccess`). Retries once. Returns the problem in a sentence, or null.
 */
export async function verifyOpenaiAccess(options: VerifyOpenaiAccessOptions): Promise<string | null> {
  const { settings } = options;
  const { client, sdk } = await createOpenaiClient({
    apiKey: options.apiKey,
    baseUrl: settings.baseUrl,
    maxRetries: 0,
    requestTimeoutMs: 30_000,
  });
  const limitField = isOpenaiPlatform(settings.baseUrl) ? "max_completion_tokens" : "max_tokens";
  const answered = await callWithApiRetries(
    () =>
      client.chat.completions.create(
        { model: settings.model, messages: [{ role: "user", content: "ping" }], [limitField]: CHECK_MAX_TOKENS },
        options.signal === undefined ? {} : { signal: options.signal },
      ),
    { sdk, maxRetries: 1, ...(options.signal === undefined ? {} : { signal: options.signal }) },
  );
  return answered.success ? null : describeApiError(answered.error, sdk, settings, answered.attempts).message;
}
