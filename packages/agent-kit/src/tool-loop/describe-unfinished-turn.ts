import { type ContentBlock, textOf } from "./transcript.ts";

/*
 * How the built-in agents treat the end of a model turn: an answer (end_turn,
 * stop_sequence), an empty answer (asked again), an answer cut off at
 * max_tokens (continued), or a turn that cannot be used (see describeUnfinishedTurn).
 * Stop reasons are the Messages API's words; each provider's adapter maps its own to them.
 */

/** What the agent says after an empty answer. */
export const EMPTY_ANSWER_PROMPT =
  "Your last message was empty. Give your final answer now: a message that starts with the YAML frontmatter.";

/** Stop reasons of a turn that is the model's answer. */
export function isAnswer(stopReason: string | null): boolean {
  return stopReason === "end_turn" || stopReason === "stop_sequence";
}

/** What the agent says after an answer cut off at max_tokens: go on, do not start over. */
export const CONTINUE_PROMPT =
  "Your last message was cut off by the output limit (max_tokens). Continue it exactly where it stopped, without repeating anything.";

/**
 * Why a model turn cannot be used or continued, or null: a refusal (never
 * continued, never taken as an empty reply), a turn cut off at max_tokens
 * inside a tool call or before any text, or one that filled the context window.
 */
export function describeUnfinishedTurn(
  message: { stopReason: string | null; stopDetails?: unknown; content: ReadonlyArray<{ type: string }> },
  hasToolCalls: boolean,
  maxTokens: number,
): string | null {
  switch (message.stopReason) {
    case "refusal": {
      const details = message.stopDetails as { category?: unknown; explanation?: unknown } | null | undefined;
      const why = [details?.category, details?.explanation].filter((part) => typeof part === "string").join(": ");
      return `the model refused to answer (stop_reason refusal${why === "" ? "" : `, ${why}`}); the refused conversation is kept in the run but never continued`;
    }
    case "max_tokens":
      if (hasToolCalls) {
        return `the model's turn was cut off at max_tokens (${maxTokens}) while it was writing a tool call; raise maxTokens`;
      }
      if (textOf(message.content as ContentBlock[]).trim() === "") {
        return `the model stopped at max_tokens (${maxTokens}) before answering; raise maxTokens`;
      }
      return null;
    case "model_context_window_exceeded":
      return "the conversation filled the model's context window before the model could answer";
    default:
      return null;
  }
}
