import { addUsage } from "@uwf/protocol";
import type { AgentLaunchResult } from "../process/agent-launch-result.ts";
import { callWithApiRetries } from "./call-with-api-retries.ts";
import { computeUsage } from "./compute-usage.ts";
import { CONTINUE_PROMPT, describeUnfinishedTurn, EMPTY_ANSWER_PROMPT, isAnswer } from "./describe-unfinished-turn.ts";
import type { ToolLoopRun } from "./tool-loop-run.ts";
import { appendUserText, type ContentBlock, textOf } from "./transcript.ts";

/** What one model turn leads to. */
export type ModelTurnOutcome =
  /** The request failed after its retries (or was stopped). */
  | { kind: "request-failed"; error: unknown; attempts: number }
  /** The run is over: the final answer, or why there is none. */
  | { kind: "ended"; fields: Partial<AgentLaunchResult> }
  /** The model is asked again (an empty answer, an answer cut off at max_tokens). */
  | { kind: "again" }
  /** The model called tools: a tool round comes next. */
  | { kind: "tool-calls"; calls: ContentBlock[] };

/** The conversation's fixed part: its system prompt and how many stored messages it continues. */
export interface TurnConversation {
  system: string;
  continued: number;
}

/**
 * Model turn `turn` of a run: one request for the conversation so far, its usage added to the
 * run's, its message added to the transcript, and what comes of it decided. An empty answer is
 * left out and asked for again; an answer cut off at max_tokens is continued in the next turn; a
 * refusal, a cut-off tool call or running out of `maxTurns` ends the run with an error.
 */
export async function takeModelTurn(
  run: ToolLoopRun,
  turn: number,
  conversation: TurnConversation,
): Promise<ModelTurnOutcome> {
  const { settings, note } = run;
  const request = {
    system: conversation.system,
    messages: run.transcript,
    continued: conversation.continued,
    tools: run.agentTools,
    signal: run.signal,
  };
  const outcome = await callWithApiRetries(() => run.provider.requestTurn(request), {
    sdk: run.provider.errors,
    maxRetries: run.maxRetries,
    signal: run.signal,
    onRetry: run.onRetry(`turn ${turn}`),
  });
  if (!outcome.success) return { kind: "request-failed", error: outcome.error, attempts: outcome.attempts };
  const message = outcome.value;
  const turnUsage = computeUsage(message.usage, settings.prices);
  run.usage = run.usage === null ? turnUsage : addUsage(run.usage, turnUsage);
  // An empty text block is refused when sent back, so it is not kept.
  const content = message.content
    .map((block) => ({ ...block }))
    .filter((block) => !(block.type === "text" && block.text === ""));
  const toolCalls = content.filter((block) => block.type === "tool_use");
  note(
    `turn ${turn}: ${message.stopReason ?? "no stop reason"}, ${turnUsage.inputTokens} in / ${turnUsage.outputTokens} out` +
      (turnUsage.cacheReadTokens > 0 ? `, ${turnUsage.cacheReadTokens} read from the cache` : "") +
      (toolCalls.length === 0 ? "" : `, ${toolCalls.map((call) => String(call.name)).join(", ")}`),
  );
  if (content.length === 0 && isAnswer(message.stopReason) && turn < settings.maxTurns) {
    // An empty answer cannot be sent back (the API refuses empty messages): it is left out, and the model asked again.
    note(`turn ${turn}: the model answered nothing; asking for the answer`);
    run.transcript = appendUserText(run.transcript, EMPTY_ANSWER_PROMPT);
    return { kind: "again" };
  }
  // What the model said this turn, as it comes: a step's live output (`log --follow -v`, the UI).
  for (const block of content) if (block.type === "text" && typeof block.text === "string") run.say(block.text);
  run.transcript.push({
    role: "assistant",
    content,
    model: message.model,
    stopReason: message.stopReason,
    usage: turnUsage,
  });
  const unfinished = describeUnfinishedTurn(message, toolCalls.length > 0, settings.maxTokens);
  if (unfinished !== null) {
    note(unfinished);
    return { kind: "ended", fields: { error: unfinished } };
  }
  if (message.stopReason === "max_tokens") {
    // Text only, cut off by the output limit: the model goes on where it stopped, in the next turn.
    if (turn >= settings.maxTurns) {
      return {
        kind: "ended",
        fields: {
          error: `the model's answer was cut off at max_tokens (${settings.maxTokens}) and maxTurns (${settings.maxTurns}) leaves no turn to finish it; raise maxTokens`,
        },
      };
    }
    run.cutOff += textOf(content);
    run.transcript.push({ role: "user", content: [{ type: "text", text: CONTINUE_PROMPT }] });
    return { kind: "again" };
  }
  if (toolCalls.length === 0) return { kind: "ended", fields: { reply: run.cutOff + textOf(content), exitCode: 0 } };
  if (turn >= settings.maxTurns) {
    return {
      kind: "ended",
      fields: {
        error: `the agent reached maxTurns (${settings.maxTurns} model turns) without a final answer; raise maxTurns on the agent or the model in config.yaml`,
      },
    };
  }
  return { kind: "tool-calls", calls: toolCalls };
}
