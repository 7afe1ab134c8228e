import { findTranscriptProblem } from "./find-transcript-problem.ts";
import type { SplitPrompt } from "./split-prompt.ts";
import { appendUserText, readTranscript, type TranscriptMessage } from "./transcript.ts";

/** What counting a conversation's input tokens gave: the count, a 400 (the API refuses the conversation), or no count. */
export type TokenCount = { tokens: number } | { refused: string } | { unavailable: string };

export interface PlanConversationOptions {
  /** The stored transcript of the role's previous visit (or of this step's previous attempt). */
  previous: readonly unknown[] | null | undefined;
  /** The prompt of a fresh conversation: the whole thread. */
  prompt: SplitPrompt;
  /** What a continued conversation is sent instead (the steps since its last visit); default `prompt`. */
  continuation?: SplitPrompt;
  model: string;
  contextWindow: number;
  maxTokens: number;
  /** Counts the input tokens of a request with this system prompt and these messages (the API's `count_tokens`). */
  countTokens: (system: string, messages: TranscriptMessage[]) => Promise<TokenCount>;
  note: (line: string) => void;
}

export type ConversationPlan =
  | {
      success: true;
      system: string;
      /** The conversation to send: the stored one continued, or a fresh one; it ends with the new user turn. */
      messages: TranscriptMessage[];
      /** How many stored messages it continues (0 for a fresh conversation). */
      continued: number;
      /** Why a stored conversation was not continued, or null. */
      freshStart: string | null;
    }
  | { success: false; problem: string };

/**
 * Whether the role's stored conversation can be continued, decided before
 * anything is sent. It is continued when it is well formed
 * (`findTranscriptProblem`) and, with the new prompt, takes at most half of
 * what the model's context window leaves beside `maxTokens`, measured with the
 * API's `count_tokens` — the other half is for this visit's own turns. Else
 * the agent starts a fresh conversation from `prompt`, which carries the
 * whole thread, and says why; a continued one is sent `continuation` (the
 * steps since its last visit). A retry prompt carries no task, so a
 * conversation that cannot be continued under one is a failure.
 */
export async function planConversation(options: PlanConversationOptions): Promise<ConversationPlan> {
  const { prompt } = options;
  const fresh = (reason: string | null): ConversationPlan => {
    if (reason !== null && !prompt.hasRole) {
      return {
        success: false,
        problem: `the conversation cannot be continued (${reason}), and a retry prompt has no task to start afresh from`,
      };
    }
    if (reason !== null) options.note(`starting a fresh conversation: ${reason}`);
    const first: TranscriptMessage = {
      role: "user",
      content: [{ type: "text", text: prompt.user }],
      system: prompt.system,
      ...(reason === null ? {} : { freshStart: reason }),
    };
    return { success: true, system: prompt.system, messages: [first], continued: 0, freshStart: reason };
  };

  if (options.previous === null || options.previous === undefined || options.previous.length === 0) return fresh(null);
  const stored = readTranscript(options.previous);
  if (stored === null) return fresh("the stored conversation is not a transcript of this agent");
  const problem = findTranscriptProblem(stored);
  if (problem !== null) return fresh(`the stored conversation is malformed: ${problem}`);

  const next = options.continuation ?? prompt;
  const system = next.hasRole ? next.system : (stored[0]?.system ?? next.system);
  const appended = appendUserText(stored, next.user);
  const messages = appended.map((message, index) => (index === 0 ? { ...message, system } : message));
  const budget = Math.floor((options.contextWindow - options.maxTokens) / 2);
  const count = await options.countTokens(system, messages);
  let tokens: number;
  if ("refused" in count) return fresh(`the API refuses the stored conversation: ${count.refused}`);
  if ("unavailable" in count) {
    tokens = estimateTokens(system, messages);
    options.note(`cannot count tokens (${count.unavailable}); estimated ${tokens} from the characters`);
  } else {
    tokens = count.tokens;
  }
  if (tokens > budget) {
    return fresh(
      `the stored conversation and the new prompt take ${tokens} tokens, more than half (${budget}) of what ${options.model}'s ${options.contextWindow}-token context window leaves beside maxTokens (${options.maxTokens})`,
    );
  }
  options.note(`continuing ${stored.length} earlier messages (${tokens} tokens)`);
  return { success: true, system, messages, continued: stored.length, freshStart: null };
}

/** A cautious guess when the provider cannot count: three characters a token. */
function estimateTokens(system: string, messages: readonly TranscriptMessage[]): number {
  const content = messages.map((message) => ({ role: message.role, content: message.content }));
  return Math.ceil((system.length + JSON.stringify(content).length) / 3);
}
