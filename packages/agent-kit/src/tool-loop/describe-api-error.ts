import { messageOf } from "@uwf/protocol";
import type { ApiErrorClasses } from "./api-error-classes.ts";
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
  sdk: ApiErrorClasses,
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
export function summarizeApiError(error: unknown, sdk: ApiErrorClasses): string {
  if (error instanceof sdk.APIConnectionError) return `connection error: ${error.message}`;
  if (!(error instanceof sdk.APIError)) return messageOf(error);
  const type = error.type ?? apiErrorType(error);
  const reason = error.status === undefined ? `${type} mid-stream (after HTTP 200)` : `${error.status} ${type}`;
  return `${reason}: ${apiErrorMessage(error)}`;
}

/**
 * The error's detail in the body: the Messages API's `{ type: "error", error: { type, message } }`,
 * or the OpenAI SDK's `error`, which is already the inner `{ message, type, code, param }`.
 */
function errorDetail(error: { error?: unknown }): { type?: unknown; code?: unknown; message?: unknown } | undefined {
  const body = error.error as { error?: unknown; message?: unknown } | null | undefined;
  if (body === null || typeof body !== "object") return undefined;
  if (body.error !== null && typeof body.error === "object") return body.error as { type?: unknown; message?: unknown };
  return typeof body.message === "string" ? body : undefined;
}

function apiErrorType(error: { error?: unknown }): string {
  const detail = errorDetail(error);
  if (typeof detail?.type === "string") return detail.type;
  return typeof detail?.code === "string" ? detail.code : "error";
}

/** The API's own message of an SDK error (from its body), else the error's message. */
export function apiErrorMessage(error: { error?: unknown; message: string }): string {
  const detail = errorDetail(error);
  return typeof detail?.message === "string" ? detail.message : error.message;
}

/** The OpenAI-style error `code` of an API error (`context_length_exceeded`...), or null. */
export function apiErrorCode(error: unknown): string | null {
  if (error === null || typeof error !== "object") return null;
  const code = errorDetail(error as { error?: unknown })?.code;
  return typeof code === "string" ? code : null;
}
