import type { FakeMessage } from "./build-fake-message.ts";

/** An error sent as an `error` event instead of the rest of the stream. */
export interface FakeStreamError {
  type: string;
  message: string;
}

/**
 * A message as the Messages API streams it, one server-sent event per string:
 * `message_start` (usage with the input tokens), a `ping`, then per content
 * block `content_block_start`, deltas (`text_delta` in pieces, `input_json_delta`
 * with the tool input's JSON in pieces) and `content_block_stop`, then
 * `message_delta` (stop reason, stop details and output tokens) and
 * `message_stop`. With `error`, the content streamed so far is followed by an
 * `error` event and the stream ends there, as an overload mid-stream does.
 */
export function encodeMessageEvents(message: FakeMessage, error?: FakeStreamError): string[] {
  const events: string[] = [];
  const emit = (type: string, data: Record<string, unknown>) => {
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  const { stop_details: _details, ...started } = message;
  emit("message_start", {
    message: {
      ...started,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...message.usage, output_tokens: Math.min(1, message.usage.output_tokens) },
    },
  });
  emit("ping", {});
  for (const [index, block] of message.content.entries()) {
    if (block.type === "text") {
      emit("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const piece of splitInPieces(block.text)) {
        emit("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
      }
    } else {
      emit("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      emit("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } });
      for (const piece of splitInPieces(JSON.stringify(block.input))) {
        emit("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
      }
    }
    if (error === undefined) emit("content_block_stop", { index });
  }
  if (error !== undefined) {
    events.push(`event: error\ndata: ${JSON.stringify({ type: "error", error: error })}\n\n`);
    return events;
  }
  emit("message_delta", {
    delta: {
      stop_reason: message.stop_reason,
      stop_sequence: null,
      ...(message.stop_details === undefined ? {} : { stop_details: message.stop_details }),
    },
    usage: { output_tokens: message.usage.output_tokens },
  });
  emit("message_stop", {});
  return events;
}

/** Up to three pieces, so clients must join deltas. */
function splitInPieces(text: string): string[] {
  if (text.length < 3) return text === "" ? [] : [text];
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
}
