import { isObject } from "@uwf/protocol";
import type { FakeMessageReply, FakeUsage } from "./fake-replies.ts";

/** The message object the API returns (and `message_start` / the stream's events describe). */
export interface FakeMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: Array<
    { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  >;
  stop_reason: string;
  stop_sequence: null;
  stop_details?: Record<string, unknown>;
  usage: FakeUsage;
}

const DEFAULT_USAGE: FakeUsage = {
  input_tokens: 10,
  output_tokens: 5,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

export interface FakeIds {
  nextMessageId(): string;
  nextToolId(): string;
}

/** The API message for a scripted reply: ids filled in, the requested model, the stop reason and usage defaulted. */
export function buildFakeMessage(reply: FakeMessageReply, body: unknown, ids: FakeIds): FakeMessage {
  const requestedModel = isObject(body) && typeof body.model === "string" ? body.model : "claude-fake";
  const content = reply.content.map((block) =>
    block.type === "text"
      ? block
      : { type: "tool_use" as const, id: block.id ?? ids.nextToolId(), name: block.name, input: block.input },
  );
  const hasToolUse = content.some((block) => block.type === "tool_use");
  return {
    id: ids.nextMessageId(),
    type: "message",
    role: "assistant",
    model: reply.model ?? requestedModel,
    content,
    stop_reason: reply.stopReason ?? (hasToolUse ? "tool_use" : "end_turn"),
    stop_sequence: null,
    ...(reply.stopDetails === undefined ? {} : { stop_details: reply.stopDetails }),
    usage: { ...DEFAULT_USAGE, ...reply.usage },
  };
}
