import type Anthropic from "@anthropic-ai/sdk";
import { captureSdkWarnings } from "../tool-loop/capture-sdk-warnings.ts";
import type { ModelTurnReply, ModelTurnRequest } from "../tool-loop/model-provider.ts";
import type { ContentBlock } from "../tool-loop/transcript.ts";
import { toolDefinitions } from "../tools/agent-tools.ts";
import { type ApiMessage, toApiMessages, toSystemBlocks } from "./anthropic-messages.ts";

type StreamParams = Parameters<Anthropic["messages"]["stream"]>[0];

export interface RequestAnthropicTurnOptions {
  client: Anthropic;
  model: string;
  maxTokens: number;
  /** What the SDK would have printed with `console.warn` (a deprecated model). */
  onWarning: (text: string) => void;
}

/**
 * One attempt at a model turn on the Messages API: a streamed request for the conversation so far,
 * with prompt-cache breakpoints on the end of the stored conversation and on the newest message (each
 * request reads the previous one from the cache), and the SDK's warnings kept off the console.
 */
export async function requestAnthropicTurn(
  options: RequestAnthropicTurnOptions,
  request: ModelTurnRequest,
): Promise<ModelTurnReply> {
  const breakpoints = [...(request.continued > 0 ? [request.continued - 1] : []), request.messages.length - 1];
  const params: StreamParams = {
    model: options.model,
    max_tokens: options.maxTokens,
    system: toSystemBlocks(request.system),
    // The transcript holds API content blocks as they came; the SDK's param types are narrower than that.
    messages: toApiMessages(request.messages, breakpoints) as ApiMessage[] as unknown as StreamParams["messages"],
    tools: toolDefinitions(request.tools),
  };
  const message = await captureSdkWarnings(
    () => options.client.messages.stream(params, { signal: request.signal }),
    options.onWarning,
  ).finalMessage();
  return {
    content: message.content.map((block) => ({ ...block }) as ContentBlock),
    stopReason: message.stop_reason,
    ...("stop_details" in message ? { stopDetails: message.stop_details } : {}),
    model: message.model,
    usage: message.usage,
  };
}
