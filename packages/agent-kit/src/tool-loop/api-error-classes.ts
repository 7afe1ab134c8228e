/**
 * The error classes a model SDK throws, as the shared loop needs them. `@anthropic-ai/sdk` and
 * `openai` have the same hierarchy (one `APIError` with `status`, `headers`, `type` and the body in
 * `error`; subclasses for aborts, connection failures and each status), so either module itself
 * fits this shape, and retries and error messages are written once.
 */
export interface ApiErrorClasses {
  APIError: new (...args: never[]) => ApiErrorInstance;
  APIUserAbortError: new (...args: never[]) => ApiErrorInstance;
  APIConnectionError: new (...args: never[]) => ApiErrorInstance;
  AuthenticationError: new (...args: never[]) => ApiErrorInstance;
  PermissionDeniedError: new (...args: never[]) => ApiErrorInstance;
  BadRequestError: new (...args: never[]) => ApiErrorInstance;
}

/** What uwf reads of an SDK's `APIError`. */
export interface ApiErrorInstance extends Error {
  readonly status: number | undefined;
  readonly headers: Headers | undefined;
  /** The response body (Anthropic: `{ type, error: { type, message } }`; OpenAI: `{ message, type, code }`). */
  readonly error: unknown;
  readonly type?: string | null | undefined;
}
