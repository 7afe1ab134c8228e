import { type Config, messageOf } from "@uwf/protocol";
import { callWithApiRetries } from "../tool-loop/call-with-api-retries.ts";
import { captureSdkWarnings } from "../tool-loop/capture-sdk-warnings.ts";
import { describeApiError } from "../tool-loop/describe-api-error.ts";
import { apiKeyHint, readApiKey } from "../tool-loop/read-api-key.ts";
import { resolveModelSettings } from "../tool-loop/resolve-model-settings.ts";
import { createAnthropicClient } from "./create-anthropic-client.ts";

export interface VerifyModelAccessOptions {
  config: Config;
  /** The uwf home, whose `.env` may hold the key. */
  home: string;
  /** A `models` alias or API model id; default `defaultModel`. */
  model?: string;
  environment?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

export type VerifyModelAccessResult =
  | { success: true; model: string; provider: string }
  | { success: false; problem: string };

/**
 * One minimal request (`max_tokens: 1`) to the configured model, to check the
 * provider's URL, the key and the model name before a workflow depends on them:
 * on the Messages API, or on `/chat/completions` for a provider of type `openai`.
 * Retries only once: `uwf setup` should answer quickly. Never throws.
 */
export async function verifyModelAccess(options: VerifyModelAccessOptions): Promise<VerifyModelAccessResult> {
  let settings: ReturnType<typeof resolveModelSettings>;
  try {
    settings = resolveModelSettings({ config: options.config, model: options.model });
  } catch (error) {
    return { success: false, problem: messageOf(error) };
  }
  const key = await readApiKey(settings.apiKeyEnv, options.home, options.environment);
  if (key === null) {
    return { success: false, problem: `${settings.apiKeyEnv} is not set; ${apiKeyHint(settings.apiKeyEnv)}` };
  }
  if (settings.providerType === "openai") {
    const { verifyOpenaiAccess } = await import("../openai/verify-openai-access.ts");
    const problem = await verifyOpenaiAccess({ settings, apiKey: key.value, signal: options.signal });
    return problem === null
      ? { success: true, model: settings.model, provider: settings.provider }
      : { success: false, problem };
  }
  const { client, sdk } = await createAnthropicClient({
    apiKey: key.value,
    baseUrl: settings.baseUrl,
    maxRetries: 0,
    requestTimeoutMs: 30_000,
  });
  const request = { model: settings.model, max_tokens: 1, messages: [{ role: "user" as const, content: "ping" }] };
  const answered = await callWithApiRetries(
    () =>
      captureSdkWarnings(
        () => client.messages.create(request, options.signal === undefined ? {} : { signal: options.signal }),
        () => {},
      ),
    { sdk, maxRetries: 1, ...(options.signal === undefined ? {} : { signal: options.signal }) },
  );
  if (answered.success) return { success: true, model: settings.model, provider: settings.provider };
  return { success: false, problem: describeApiError(answered.error, sdk, settings, answered.attempts).message };
}
