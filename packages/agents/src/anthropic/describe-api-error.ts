import { messageOf } from "@uwf/protocol";
import { apiKeyHint } from "./read-api-key.ts";
import type { ModelSettings } from "./resolve-model-settings.ts";

export interface ApiErrorDescription {
  message: string;
  /** The request was stopped through the abort signal (timeout or Ctrl-C), not by the API. */
  aborted: boolean;
}

/**
 * A sentence for an error thrown by the SDK: an authentication failure says how
 * to set the key; other API errors give the status (or, for an `error` event
 * in a stream, that it came mid-stream after HTTP 200), the error type, the
 * API's message and how many attempts were made; a connection error names the URL.
 */
export function describeApiError(
  error: unknown,
  sdk: typeof import("@anthropic-ai/sdk"),
  settings: ModelSettings,
  attempts: number,
): ApiErrorDescription {
  const after = attempts > 1 ? ` after ${attempts} attempts` : "";
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
      message: `cannot reach ${where}${after}: ${error.message}`,
      aborted: false,
    };
  }
  if (error instanceof sdk.APIError) {
    return {
      message: `the model API (${where}, model ${settings.model}) failed${after}: ${summarizeApiError(error, sdk)}`,
      aborted: false,
    };
  }
  return {
    message: `the model request failed: ${messageOf(error)}`,
    aborted: false,
  };
}

/**
 * The status, error type and message of an SDK error, in a few words:
 * `529 overloaded_error: Overloaded`, `overloaded_error mid-stream (after HTTP 200): Overloaded`,
 * `connection error: …`.
 */
export function summarizeApiError(error: unknown, sdk: typeof import("@anthropic-ai/sdk")): string {
  if (error instanceof sdk.APIConnectionError) return `connection error: ${error.message}`;
  if (!(error instanceof sdk.APIError)) return messageOf(error);
  const type = error.type ?? apiErrorType(error);
  const reason = error.status === undefined ? `${type} mid-stream (after HTTP 200)` : `${error.status} ${type}`;
  return `${reason}: ${apiErrorMessage(error)}`;
}

function apiErrorType(error: { error?: unknown }): string {
  const body = error.error as { error?: { type?: unknown } } | undefined;
  return typeof body?.error?.type === "string" ? body.error.type : "error";
}

function apiErrorMessage(error: { error?: unknown; message: string }): string {
  const body = error.error as { error?: { message?: unknown } } | undefined;
  return typeof body?.error?.message === "string" ? body.error.message : error.message;
}
