import type { AgentRunNode, ThreadRecord } from "@uwf/protocol";
import type { SpanSource } from "./span-source.ts";
import type { SpanAttributeValue } from "./uwf-span.ts";

/** Agent kinds that name a GenAI provider (`gen_ai.provider.name`); command agents name none. */
const PROVIDERS: Record<string, string> = { anthropic: "anthropic", openai: "openai" };

/**
 * The GenAI attributes of an agent's run for `role` (OpenTelemetry's GenAI conventions, `invoke_agent`),
 * with uwf's own under `uwf.*`: the thread, its workflow, the agent alias, usage and cost. Prompt and
 * reply text only with the content opt-in, as the conventions' `gen_ai.input.messages` and
 * `gen_ai.output.messages`.
 */
export async function runAttributes(
  source: SpanSource,
  record: ThreadRecord,
  run: AgentRunNode | null,
  role: string,
): Promise<Record<string, SpanAttributeValue>> {
  const attributes: Record<string, SpanAttributeValue> = {
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": role,
    "gen_ai.conversation.id": record.id,
    "uwf.thread": record.id,
    "uwf.workflow": record.workflow,
    "uwf.workflow.address": record.workflowAddress,
    "uwf.role": role,
  };
  if (record.branchOf !== undefined) {
    attributes["uwf.branch.parent"] = record.branchOf.thread;
    attributes["uwf.branch.key"] = record.branchOf.branch;
  }
  if (run === null) return attributes;
  attributes["uwf.agent"] = run.agent;
  attributes["uwf.agent.kind"] = run.kind;
  attributes["uwf.attempts"] = run.attempts.length;
  const provider = PROVIDERS[run.kind];
  if (provider !== undefined) attributes["gen_ai.provider.name"] = provider;
  const model = modelOf(run);
  if (model !== null) {
    attributes["gen_ai.request.model"] = model;
    attributes["gen_ai.response.model"] = model;
  }
  if (run.sessionId !== null) attributes["uwf.session.id"] = run.sessionId;
  if (run.usage !== null) {
    attributes["gen_ai.usage.input_tokens"] = run.usage.inputTokens;
    attributes["gen_ai.usage.output_tokens"] = run.usage.outputTokens;
    attributes["gen_ai.usage.cache_read.input_tokens"] = run.usage.cacheReadTokens;
    attributes["gen_ai.usage.cache_creation.input_tokens"] = run.usage.cacheWriteTokens;
    attributes["uwf.usage.cost_usd"] = run.usage.costUsd;
  }
  if (source.captureContent) Object.assign(attributes, await contentAttributes(source, run));
  return attributes;
}

/** The model the run's last launch that reported one used (the largest share of its output, when several). */
function modelOf(run: AgentRunNode): string | null {
  for (const attempt of [...run.attempts].reverse()) {
    const usage = Object.entries(attempt.modelUsage ?? {});
    if (usage.length === 0) continue;
    usage.sort(([, left], [, right]) => right.outputTokens - left.outputTokens);
    return usage[0]?.[0] ?? null;
  }
  return null;
}

/** The prompt the run was given and the last reply it returned, as GenAI message lists (JSON text). */
async function contentAttributes(source: SpanSource, run: AgentRunNode): Promise<Record<string, string>> {
  const attributes: Record<string, string> = {};
  const prompt = await source.prompt(run.prompt);
  if (prompt !== null) {
    attributes["gen_ai.input.messages"] = JSON.stringify([
      { role: "user", parts: [{ type: "text", content: prompt }] },
    ]);
  }
  const reply = await source.text(run.attempts.at(-1)?.reply ?? null);
  if (reply !== null) {
    attributes["gen_ai.output.messages"] = JSON.stringify([
      { role: "assistant", parts: [{ type: "text", content: reply }], finish_reason: "stop" },
    ]);
  }
  return attributes;
}
