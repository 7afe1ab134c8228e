import type { ContentBlock, TranscriptMessage } from "../tool-loop/transcript.ts";
import type { AgentTool } from "../tools/agent-tool.ts";
import { offeredTools } from "../tools/agent-tools.ts";

/** A Chat Completions message as uwf sends it. */
export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** One entry of the `tools` parameter: a function the model may call. */
export interface ChatTool {
  type: "function";
  function: { name: string; description: string; parameters: AgentTool["inputSchema"] };
}

/** The prefix of a tool result that was an error: the Chat Completions API has no `is_error`. */
export const TOOL_ERROR_PREFIX = "Error: ";

/**
 * The stored transcript (uwf's blocks: `text`, `tool_use`, `tool_result`) as Chat Completions
 * messages: the system prompt first; an assistant turn's text as its `content` (null when it only
 * calls tools) and its `tool_use` blocks as `tool_calls`; a user turn's `tool_result` blocks as one
 * `tool` message each, right after the call they answer, then its text, if any, as a user message.
 */
export function toChatMessages(system: string, messages: readonly TranscriptMessage[]): ChatMessage[] {
  const chat: ChatMessage[] = [{ role: "system", content: system }];
  for (const message of messages) {
    if (message.role === "assistant") {
      const text = textBlocks(message.content);
      const calls = message.content.filter((block) => block.type === "tool_use").map(toToolCall);
      chat.push({
        role: "assistant",
        content: text === "" && calls.length > 0 ? null : text,
        ...(calls.length === 0 ? {} : { tool_calls: calls }),
      });
      continue;
    }
    for (const block of message.content) {
      if (block.type !== "tool_result") continue;
      const content = typeof block.content === "string" ? block.content : JSON.stringify(block.content ?? "");
      chat.push({
        role: "tool",
        tool_call_id: String(block.tool_use_id),
        content: block.is_error === true ? `${TOOL_ERROR_PREFIX}${content}` : content,
      });
    }
    const text = textBlocks(message.content);
    if (text !== "") chat.push({ role: "user", content: text });
  }
  return chat;
}

/** The run's tools as the `tools` parameter: one function each, its input schema as `parameters`. */
export function toChatTools(tools: readonly AgentTool[]): ChatTool[] {
  return offeredTools(tools).map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

/**
 * A stored `tool_use` block as a tool call. The arguments are sent as JSON with sorted keys: the store
 * keeps objects canonical (keys sorted), so a conversation continued on a later visit is sent with the
 * very bytes the visit itself sent, and a server's prompt cache (by prefix) still matches. Arguments
 * that were not JSON are kept as the model wrote them (`input` is then that string) and sent back so.
 */
function toToolCall(block: ContentBlock): ChatToolCall {
  const input = block.input;
  return {
    id: String(block.id),
    type: "function",
    function: { name: String(block.name), arguments: typeof input === "string" ? input : sortedJson(input ?? {}) },
  };
}

function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function textBlocks(content: readonly ContentBlock[]): string {
  return content
    .filter((block) => block.type === "text" && typeof block.text === "string" && block.text !== "")
    .map((block) => block.text as string)
    .join("\n\n");
}
