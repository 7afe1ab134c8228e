import type Anthropic from "@anthropic-ai/sdk";
import { type ApiCallResult, callWithApiRetries } from "./call-with-api-retries.ts";
import { captureSdkWarnings } from "./capture-sdk-warnings.ts";
import { type ApiMessage, type TranscriptMessage, toApiMessages, toSystemBlocks } from "./transcript.ts";

type Sdk = typeof import("@anthropic-ai/sdk");
type StreamParams = Parameters<Anthropic["messages"]["stream"]>[0];

export interface RequestModelTurnOptions {
  client: Anthropic;
  sdk: Sdk;
  model: string;
  maxTokens: number;
  system: string;
  messages: readonly TranscriptMessage[];
  /** Indexes of the messages whose last block gets a cache breakpoint (the system prompt always has one). */
  breakpoints: readonly number[];
  tools: StreamParams["tools"];
  signal: AbortSignal;
  maxRetries: number;
  onRetry: Parameters<typeof callWithApiRetries>[1]["onRetry"];
  /** What the SDK would have printed with `console.warn` (a deprecated model). */
  onWarning: (text: string) => void;
}

/**
 * One model turn: a streamed Messages API request for the conversation so far,
 * retried as `callWithApiRetries` says (an overload mid-stream included), with
 * the SDK's warnings kept off the console.
 */
export function requestModelTurn(options: RequestModelTurnOptions): Promise<ApiCallResult<Anthropic.Message>> {
  const params: StreamParams = {
    model: options.model,
    max_tokens: options.maxTokens,
    system: toSystemBlocks(options.system),
    // The transcript holds API content blocks as they came; the SDK's param types are narrower than that.
    messages: toApiMessages(
      options.messages,
      options.breakpoints,
    ) as ApiMessage[] as unknown as StreamParams["messages"],
    ...(options.tools === undefined ? {} : { tools: options.tools }),
  };
  return callWithApiRetries(
    () =>
      captureSdkWarnings(
        () => options.client.messages.stream(params, { signal: options.signal }),
        options.onWarning,
      ).finalMessage(),
    {
      sdk: options.sdk,
      maxRetries: options.maxRetries,
      signal: options.signal,
      ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
    },
  );
}
