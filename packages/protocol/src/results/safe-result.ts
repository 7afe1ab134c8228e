/**
 * What every `safeX` returns: the value `x` would have returned, or the error it would have thrown.
 * Like zod's `safeParse`; the error is a typed UwfError subclass, so the caller can rethrow it or
 * read its fields.
 */
export type SafeResult<Value, Failure extends Error> =
  | { success: true; value: Value }
  | { success: false; error: Failure };
