import type { TranscriptMessage } from "./transcript.ts";

/** Stop reasons after which a turn is no answer to build on. */
const UNFINISHED_STOPS: Record<string, string> = {
  max_tokens: "was cut off at max_tokens",
  refusal: "was refused (stop_reason refusal), and a refused conversation must not be continued",
  model_context_window_exceeded: "filled the model's context window",
};

/**
 * Why a stored conversation cannot be continued as it is, or null. The
 * Messages API refuses a conversation that does not start with a user turn,
 * does not alternate, has an empty message, or has a `tool_use` not answered by
 * its `tool_result` in the next message (or a `tool_result` answering none);
 * and a conversation whose last turn is not a finished answer (cut off at
 * `max_tokens`, refused, still calling tools) is no base for the next visit.
 */
export function findTranscriptProblem(messages: readonly TranscriptMessage[]): string | null {
  if (messages[0]?.role !== "user") return "it does not start with a user message";
  for (const [index, message] of messages.entries()) {
    const number = index + 1;
    if (index > 0 && messages[index - 1]?.role === message.role) {
      return `messages ${index} and ${number} are both ${message.role} turns`;
    }
    if (message.content.length === 0) return `message ${number} is empty`;
    const calls = idsOf(message, "tool_use", "id");
    if (calls.length > 0) {
      const next = messages[index + 1];
      const answered = next === undefined ? [] : idsOf(next, "tool_result", "tool_use_id");
      const unanswered = calls.filter((id) => !answered.includes(id));
      if (unanswered.length > 0) {
        return `message ${number} calls ${unanswered.join(", ")} without a tool_result in the next message`;
      }
    }
    const results = idsOf(message, "tool_result", "tool_use_id");
    const previousCalls = index === 0 ? [] : idsOf(messages[index - 1] as TranscriptMessage, "tool_use", "id");
    const stray = results.filter((id) => !previousCalls.includes(id));
    if (stray.length > 0) return `message ${number} answers ${stray.join(", ")}, which the message before did not call`;
  }
  const last = messages.at(-1) as TranscriptMessage;
  if (last.role !== "assistant") return "it does not end with the model's answer";
  const unfinished = UNFINISHED_STOPS[String(last.stopReason)];
  return unfinished === undefined ? null : `its last turn ${unfinished}`;
}

function idsOf(message: TranscriptMessage, type: string, field: string): string[] {
  return message.content.filter((block) => block.type === type).map((block) => String(block[field]));
}
