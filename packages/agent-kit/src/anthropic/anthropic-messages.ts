import type { ContentBlock, TranscriptMessage } from "../tool-loop/transcript.ts";

/** What the Messages API accepts: `{ role, content }` only. */
export interface ApiMessage {
  role: "user" | "assistant";
  content: ContentBlock[];
}

const CACHE_BREAKPOINT = { type: "ephemeral" } as const;

/**
 * The messages as the API takes them (`{ role, content }`, the stored
 * metadata left out), with a prompt-cache breakpoint on the last block of each
 * message whose index is in `breakpoints`. Blocks are otherwise sent exactly
 * as stored, so each request repeats the previous one byte for byte before
 * what is new.
 */
export function toApiMessages(messages: readonly TranscriptMessage[], breakpoints: readonly number[]): ApiMessage[] {
  return messages.map((message, index) => {
    if (!breakpoints.includes(index)) return { role: message.role, content: message.content };
    const last = message.content.length - 1;
    const content = message.content.map((block, blockIndex) =>
      blockIndex === last ? { ...block, cache_control: CACHE_BREAKPOINT } : block,
    );
    return { role: message.role, content };
  });
}

/** The system prompt as one text block with a cache breakpoint: with the tools before it, the stable prefix of every request. */
export function toSystemBlocks(
  system: string,
): Array<{ type: "text"; text: string; cache_control: { type: "ephemeral" } }> {
  return [{ type: "text", text: system, cache_control: CACHE_BREAKPOINT }];
}
