import { apiKeyHint } from "./read-api-key.ts";
import type { ModelSettings } from "./resolve-model-settings.ts";

export interface ApiErrorDescription {
  message: string;
  /** The request was stopped through the abort signal (timeout or Ctrl-C), not by the API. */
  aborted: boolean;
}

/**
 * A sentence for an error thrown by the SDK: an authentication failure says how
 * to set the key; other API errors give the status, the error type and the
 * API's message; a connection error names the URL.
 */
export function describeApiError(
  error: unknown,
  sdk: typeof import("@anthropic-ai/sdk"),
  settings: ModelSettings,
  retries: number,
): ApiErrorDescription {
  const where = `provider "${settings.provider}"${settings.baseUrl === undefined ? "" : ` at ${settings.baseUrl}`}`;
  if (error instanceof sdk.APIUserAbortError) return { message: "the request was aborted", aborted: true };
  if (error instanceof sdk.AuthenticationError || error instanceof sdk.PermissionDeniedError) {
    return {
      message:
        `the API key in ${settings.apiKeyEnv} was refused by ${where} (${error.status} ${apiErrorType(error)}: ${apiErrorMessage(error)}); ` +
        apiKeyHint(settings.apiKeyEnv),
      aborted: false,
    };
  }
  if (error instanceof sdk.APIConnectionError) {
    return {
      message: `cannot reach ${where} after ${retries + 1} attempts: ${error.message}`,
      aborted: false,
    };
  }
  if (error instanceof sdk.APIError) {
    const retried = error.status === 429 || (error.status ?? 0) >= 500 ? ` after ${retries + 1} attempts` : "";
    return {
      message: `the model API (${where}, model ${settings.model}) failed${retried}: ${error.status} ${apiErrorType(error)}: ${apiErrorMessage(error)}`,
      aborted: false,
    };
  }
  return {
    message: `the model request failed: ${error instanceof Error ? error.message : String(error)}`,
    aborted: false,
  };
}

function apiErrorType(error: { error?: unknown }): string {
  const body = error.error as { error?: { type?: unknown } } | undefined;
  return typeof body?.error?.type === "string" ? body.error.type : "error";
}

function apiErrorMessage(error: { error?: unknown; message: string }): string {
  const body = error.error as { error?: { message?: unknown } } | undefined;
  return typeof body?.error?.message === "string" ? body.error.message : error.message;
}
