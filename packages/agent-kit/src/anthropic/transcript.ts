import type { Usage } from "@uwf/protocol";

/**
 * One message of the built-in agent's stored transcript: the Messages API's
 * `{ role, content }`, and for the model's turns the model, stop reason and
 * that turn's usage. Stored as the run's `transcript/1` node; a later visit of
 * the role sends it again to continue the conversation.
 */
export interface TranscriptMessage {
  role: "user" | "assistant";
  content: ContentBlock[];
  model?: string;
  stopReason?: string | null;
  usage?: Usage;
}

/** A content block as the API returns or accepts it (text, tool_use, tool_result, thinking...). */
export type ContentBlock = { type: string } & Record<string, unknown>;

/** What the Messages API accepts: `{ role, content }` only. */
export interface ApiMessage {
  role: "user" | "assistant";
  content: ContentBlock[];
}

/**
 * The conversation to send for a new visit: the stored transcript of the role's
 * previous visit (when it has the expected shape), then the new user turn. A
 * transcript that cannot be read is dropped: the new prompt carries the history anyway.
 */
export function continueTranscript(
  previous: readonly unknown[] | null | undefined,
  userText: string,
): TranscriptMessage[] {
  const messages = readTranscript(previous) ?? [];
  return appendUserText(messages, userText);
}

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
  return messages[0]?.role === "user" ? messages : null;
}

/**
 * The messages as the API takes them, with a prompt-cache breakpoint on the
 * last block, so each turn of the loop reads the conversation so far from the cache.
 */
export function toApiMessages(messages: readonly TranscriptMessage[]): ApiMessage[] {
  return messages.map((message, index) => {
    if (index !== messages.length - 1) return { role: message.role, content: message.content };
    const content = message.content.map((block, blockIndex) =>
      blockIndex === message.content.length - 1 ? { ...block, cache_control: { type: "ephemeral" } } : block,
    );
    return { role: message.role, content };
  });
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
