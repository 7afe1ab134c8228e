/** What every `safeParseX` returns: the value, or the error it would have thrown. */
export type SafeResult<Value, Failure = Error> = { success: true; value: Value } | { success: false; error: Failure };
