import { isObject } from "@uwf/protocol";
/**
 * The fake server's token count of a request: the characters of its `system`,
 * `messages` and `tools` as JSON (without `cache_control` markers, which do not
 * count), divided by four and rounded up. The same number answers
 * `count_tokens` and decides whether a message request fits the context
 * window, so a client that counts before sending never meets the 400.
 */
export function estimateFakeInputTokens(body: unknown): number {
  const request = isObject(body) ? body : {};
  const counted = JSON.stringify([request.system ?? null, request.messages ?? [], request.tools ?? []], (key, value) =>
    key === "cache_control" ? undefined : value,
  );
  return Math.ceil(counted.length / 4);
}
