import type { Usage } from "@uwf/protocol";

/**
 * One message of a built-in agent's stored transcript, whatever its provider: the Messages API's
 * `{ role, content }` with `text`, `tool_use` and `tool_result` blocks (each provider's adapter maps
 * them to its API's messages), for the model's turns the model, stop reason and that
 * turn's usage, and on the first message the system prompt the conversation
 * was held under (and why it was started afresh, when it was). Stored as the
 * run's `transcript/1` node; a later visit of the role sends it again to
 * continue the conversation.
 */
export interface TranscriptMessage {
  role: "user" | "assistant";
  content: ContentBlock[];
  model?: string;
  stopReason?: string | null;
  usage?: Usage;
  /** First message only: the system prompt sent with this conversation. */
  system?: string;
  /** First message only: why the stored conversation of the role's previous visit was not continued. */
  freshStart?: string;
}

/** A content block as the API returns or accepts it (text, tool_use, tool_result, thinking...). */
export type ContentBlock = { type: string } & Record<string, unknown>;

/** Adds a user turn (merged into the last message when that is already a user turn, as the API needs alternation). */
export function appendUserText(messages: TranscriptMessage[], text: string): TranscriptMessage[] {
  const last = messages.at(-1);
  const block: ContentBlock = { type: "text", text };
  if (last?.role === "user") return [...messages.slice(0, -1), { ...last, content: [...last.content, block] }];
  return [...messages, { role: "user", content: [block] }];
}

/** The stored messages, or null when they are not a transcript of this agent. */
export function readTranscript(value: readonly unknown[] | null | undefined): TranscriptMessage[] | null {
  if (value === null || value === undefined || value.length === 0) return null;
  const messages: TranscriptMessage[] = [];
  for (const item of value) {
    if (item === null || typeof item !== "object") return null;
    const { role, content } = item as { role?: unknown; content?: unknown };
    if (role !== "user" && role !== "assistant") return null;
    if (typeof content === "string") {
      messages.push({ ...(item as TranscriptMessage), content: [{ type: "text", text: content }] });
      continue;
    }
    if (!Array.isArray(content) || !content.every(isBlock)) return null;
    messages.push(item as TranscriptMessage);
  }
  return messages;
}

/** The text of a model turn: its text blocks, joined. */
export function textOf(content: readonly ContentBlock[]): string {
  return content
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string)
    .join("\n\n");
}

function isBlock(value: unknown): value is ContentBlock {
  return value !== null && typeof value === "object" && typeof (value as { type?: unknown }).type === "string";
}
