/**
 * Runs a synchronous SDK call with `console.warn` redirected to `onWarning`.
 * The SDK warns about deprecated models with `console.warn` when a request is
 * made, whatever its `logLevel`, which would put text on uwf's stderr under
 * `-q --json`; uwf keeps it in the agent's own log instead. The SDK warns
 * before its first `await`, so only the synchronous start is wrapped and no
 * other code can run while `console.warn` is replaced.
 */
export function captureSdkWarnings<Value>(start: () => Value, onWarning: (text: string) => void): Value {
  const original = console.warn;
  console.warn = (...parts: unknown[]) => {
    onWarning(parts.map((part) => (typeof part === "string" ? part : String(part))).join(" "));
  };
  try {
    return start();
  } finally {
    console.warn = original;
  }
}
