import { isObject } from "@uwf/protocol";

/** The fields the Messages API accepts on the blocks uwf sends back; any other is "Extra inputs are not permitted". */
const BLOCK_FIELDS: Record<string, readonly string[]> = {
  text: ["type", "text", "cache_control", "citations"],
  tool_use: ["type", "id", "name", "input", "cache_control", "caller"],
  tool_result: ["type", "tool_use_id", "content", "is_error", "cache_control"],
};

/**
 * The problem the real Messages API reports for a request's `system` and
 * `messages`, in its words, or null. Mid-conversation system messages aside,
 * the conversation starts with a user turn and alternates (the real API merges consecutive turns of one role;
 * the fake refuses them, as uwf relies on alternation), no message is empty
 * but a final assistant one, text blocks are not empty, every `tool_use` is
 * answered by its `tool_result` in the very next message and every
 * `tool_result` answers a `tool_use` of the message before, blocks carry only
 * the fields the API knows, and a final assistant turn (a prefill) does not
 * end with whitespace.
 */
export function checkRequestMessages(body: Record<string, unknown>): string | null {
  const system = checkSystem(body.system, "system");
  if (system !== null) return system;
  const all = body.messages;
  if (!Array.isArray(all)) return "messages: Field required";
  if (all.length === 0) return "messages: at least one message is required";
  // Mid-conversation system messages (`role: "system"`) sit between turns: checked alone, then left out.
  const turns: Array<[number, Record<string, unknown>]> = [];
  for (const [index, message] of all.entries()) {
    if (!isObject(message)) return `messages.${index}: Input should be a valid dictionary`;
    if (message.role === "system") {
      const problem = checkSystem(message.content, `messages.${index}.content`);
      if (problem !== null) return problem;
    } else {
      turns.push([index, message]);
    }
  }
  let previousToolUses: string[] = [];
  for (const [position, [index, message]] of turns.entries()) {
    const at = `messages.${index}`;
    if (message.role !== "user" && message.role !== "assistant") {
      return `${at}.role: Input should be 'user', 'assistant' or 'system'`;
    }
    if (position === 0 && message.role !== "user") return 'messages: first message must use the "user" role';
    const previous = position === 0 ? undefined : turns[position - 1];
    if (previous?.[1].role === message.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${message.role}" roles in a row`;
    }
    const blocks = toBlocks(message.content);
    if (blocks === null) return `${at}.content: Input should be a valid string or list of content blocks`;
    const last = position === turns.length - 1;
    if (blocks.length === 0 && !(last && message.role === "assistant")) {
      return `${at}: all messages must have non-empty content except for the optional final assistant message`;
    }
    const blockProblem = checkBlocks(blocks, at, message.role);
    if (blockProblem !== null) return blockProblem;

    const answered = blocks.filter((block) => block.type === "tool_result").map((block) => String(block.tool_use_id));
    const stray = answered.filter((id) => !previousToolUses.includes(id));
    if (stray.length > 0) {
      return `${at}.content.${blocks.findIndex((block) => block.tool_use_id === stray[0])}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(", ")}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    const unanswered = previousToolUses.filter((id) => !answered.includes(id));
    if (unanswered.length > 0 && previous !== undefined) return unansweredToolUses(previous[0], unanswered);
    previousToolUses = blocks.filter((block) => block.type === "tool_use").map((block) => String(block.id));
    if (last && previousToolUses.length > 0) return unansweredToolUses(index, previousToolUses);
    if (last && message.role === "assistant") {
      const text = blocks.at(-1)?.text;
      if (typeof text === "string" && /\s$/.test(text)) {
        return "messages: final assistant content cannot end with trailing whitespace";
      }
    }
  }
  return null;
}

function unansweredToolUses(index: number, ids: string[]): string {
  return `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
}

/** A system prompt (`system`, or a mid-conversation system message's content): a string or non-empty text blocks. */
function checkSystem(system: unknown, at: string): string | null {
  if (system === undefined || typeof system === "string") return null;
  if (!Array.isArray(system)) return `${at}: Input should be a valid string or list of text blocks`;
  for (const [index, block] of system.entries()) {
    if (!isObject(block) || block.type !== "text") return `${at}.${index}.type: Input should be 'text'`;
    if (typeof block.text !== "string" || block.text === "") return `${at}: text content blocks must be non-empty`;
  }
  return null;
}

function checkBlocks(blocks: Array<Record<string, unknown>>, at: string, role: unknown): string | null {
  for (const [index, block] of blocks.entries()) {
    const where = `${at}.content.${index}`;
    if (typeof block.type !== "string") return `${where}.type: Field required`;
    const fields = BLOCK_FIELDS[block.type];
    const extra = fields === undefined ? undefined : Object.keys(block).find((key) => !fields.includes(key));
    if (extra !== undefined) return `${where}.${block.type}.${extra}: Extra inputs are not permitted`;
    if (block.type === "text" && (typeof block.text !== "string" || block.text === "")) {
      return "messages: text content blocks must be non-empty";
    }
    if (block.type === "tool_use" && role !== "assistant")
      return `${where}: tool_use blocks are only allowed in assistant messages`;
    if (block.type === "tool_result" && role !== "user")
      return `${where}: tool_result blocks are only allowed in user messages`;
    if (block.type === "tool_use" && (typeof block.id !== "string" || !isObject(block.input))) {
      return `${where}.tool_use: a tool_use block needs an id and an input object`;
    }
  }
  return null;
}

function toBlocks(content: unknown): Array<Record<string, unknown>> | null {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content) || !content.every(isObject)) return null;
  return content;
}
