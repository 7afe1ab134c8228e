import type { AgentTool } from "../tools/agent-tool.ts";
import type { ApiErrorClasses } from "./api-error-classes.ts";
import type { CallWithApiRetriesOptions } from "./call-with-api-retries.ts";
import type { ApiUsage } from "./compute-usage.ts";
import type { TokenCount } from "./plan-conversation.ts";
import type { ContentBlock, TranscriptMessage } from "./transcript.ts";

/** The conversation so far and what the model may call, for one request. */
export interface ModelTurnRequest {
  system: string;
  messages: readonly TranscriptMessage[];
  /** How many of `messages` were stored by an earlier visit (a provider with a prompt cache marks their end). */
  continued: number;
  tools: readonly AgentTool[];
  signal: AbortSignal;
}

/** One model turn in the shared loop's terms, whatever the API said. */
export interface ModelTurnReply {
  /** `text` and `tool_use` blocks (`{ type: "tool_use", id, name, input }`), as the transcript stores them. */
  content: ContentBlock[];
  /**
   * Why the turn ended, in the Messages API's words: `end_turn`, `stop_sequence`, `tool_use`,
   * `max_tokens`, `refusal`, `model_context_window_exceeded`; an adapter maps its API's reasons to these.
   */
  stopReason: string | null;
  /** What the API said about a refusal (`{ category, explanation }`), when it said anything. */
  stopDetails?: unknown;
  /** The model that answered. */
  model: string;
  usage: ApiUsage;
}

/** How the shared loop retries a provider's requests (see `callWithApiRetries`). */
export interface ProviderRetries {
  maxRetries: number;
  signal: AbortSignal;
  onRetry: NonNullable<CallWithApiRetriesOptions["onRetry"]>;
}

/**
 * One model API as the shared tool loop (`runToolLoop`) uses it: the small part that differs between
 * providers. Everything else — turns, tool rounds, retries, stops, usage, the conversation plan — is
 * the loop's own.
 */
export interface ModelProvider {
  /** The SDK's error classes, for retries and error messages. */
  errors: ApiErrorClasses;
  /** One attempt at a model turn; the loop retries it. Throws the SDK's errors. */
  requestTurn(request: ModelTurnRequest): Promise<ModelTurnReply>;
  /** The input tokens of a request, for `planConversation`; `{ unavailable }` when the API cannot count. */
  countTokens(request: Omit<ModelTurnRequest, "continued">, retries: ProviderRetries): Promise<TokenCount>;
  /** A sentence when `error` says the request is over the model's context window, else null. */
  describeOverflow(error: unknown): string | null;
}
