import {
  type AgentLaunchResult,
  buildRetryPrompt,
  extractFrontmatter,
  extractWithModel,
  type LaunchAgentOptions,
  launchAgent,
  type PreviousVisit,
} from "@uwf/agent-kit";
import { type AgentRunOutcome, addUsage, type Config, type JsonSchemaObject, type Usage } from "@uwf/protocol";

export interface AttemptRecord {
  request: string;
  result: AgentLaunchResult;
  /** Why this attempt did not count, or null for the one that did. */
  error: string | null;
}

export interface AgentRunResult {
  outcome: AgentRunOutcome;
  error: string | null;
  attempts: AttemptRecord[];
  fields: Record<string, unknown> | null;
  body: string | null;
  usage: Usage | null;
  sessionId: string | null;
  /** The conversation of the last attempt, for agents that keep one. */
  transcript: unknown[] | null;
  /** How the fields were obtained: from the reply's frontmatter, or by the extraction model; null when they were not. */
  extraction: "frontmatter" | "llm" | null;
}

export interface RunAgentWithRetriesOptions extends Omit<LaunchAgentOptions, "prompt" | "config"> {
  prompt: string;
  schema: JsonSchemaObject;
  retries: number;
  /** The uwf home's config: agents read their providers from it, and it names the extraction model. */
  config: Config;
}

/**
 * Launches the agent and validates its reply, asking again with the exact problem
 * when the reply is invalid. A failed launch (exit ≠ 0, timeout, interrupt) is not retried.
 * An agent that keeps a conversation (a transcript or a session) is asked again within
 * it, with the problem alone; others get the whole prompt again with the problem appended.
 * When the reply is still invalid after the retries and config.yaml names an
 * `extractionModel`, that model extracts the fields (`extraction: "llm"`).
 */
export async function runAgentWithRetries(options: RunAgentWithRetriesOptions): Promise<AgentRunResult> {
  const { schema, retries, prompt, config, ...launchOptions } = options;
  const attempts: AttemptRecord[] = [];
  let usage: Usage | null = null;
  let sessionId: string | null = null;
  let transcript: unknown[] | null = null;
  const addToUsage = (more: Usage | null) => {
    if (more !== null) usage = usage === null ? more : addUsage(usage, more);
  };
  const finish = (
    outcome: AgentRunOutcome,
    error: string | null,
    extracted: { fields: Record<string, unknown>; body: string; extraction: "frontmatter" | "llm" } | null = null,
  ): AgentRunResult => ({
    outcome,
    error,
    attempts,
    fields: extracted?.fields ?? null,
    body: extracted?.body ?? null,
    usage,
    sessionId,
    transcript,
    extraction: extracted?.extraction ?? null,
  });

  let request = prompt;
  let previousVisit: PreviousVisit | undefined = launchOptions.previousVisit;
  for (let attempt = 0; ; attempt++) {
    const result = await launchAgent({
      ...launchOptions,
      config,
      prompt: request,
      attempt,
      ...(previousVisit === undefined ? {} : { previousVisit }),
    });
    addToUsage(result.usage);
    sessionId = result.sessionId ?? sessionId;
    transcript = result.transcript ?? transcript;
    const failure = launchFailure(result);
    if (failure !== null) {
      attempts.push({ request, result, error: failure.error });
      return finish(failure.outcome, failure.error);
    }
    const extracted = extractFrontmatter(result.reply, schema);
    attempts.push({ request, result, error: extracted.success ? null : extracted.problem });
    if (extracted.success) return finish("ok", null, { ...extracted, extraction: "frontmatter" });
    if (attempt < retries) {
      const retryPrompt = buildRetryPrompt(extracted.problem, schema);
      if (keepsConversation(result)) {
        previousVisit = { sessionId: result.sessionId, transcript: result.transcript ?? null, shared: false };
        request = retryPrompt;
      } else {
        request = `${prompt}\n\n${retryPrompt}`;
      }
      continue;
    }
    const invalid = `reply still invalid after ${attempt + 1} attempt(s): ${extracted.problem}`;
    if (config.extractionModel === undefined) return finish("invalid", invalid);
    const fallback = await extractWithModel({
      config,
      home: launchOptions.env.home,
      reply: result.reply,
      schema,
      roleName: launchOptions.env.role,
      ...(launchOptions.signal === undefined ? {} : { signal: launchOptions.signal }),
    });
    addToUsage(fallback.usage);
    if (!fallback.success) {
      return finish("invalid", `${invalid}; extraction by ${config.extractionModel} failed too: ${fallback.problem}`);
    }
    return finish("ok", null, { fields: fallback.fields, body: fallback.body, extraction: "llm" });
  }
}

/** An agent that returned a transcript or a session can be asked again within that conversation. */
function keepsConversation(result: AgentLaunchResult): boolean {
  return (result.transcript !== undefined && result.transcript !== null) || result.sessionId !== null;
}

function launchFailure(result: AgentLaunchResult): { outcome: AgentRunOutcome; error: string } | null {
  if (result.interrupted) return { outcome: "interrupted", error: "interrupted" };
  if (result.timedOut) return { outcome: "timeout", error: result.error ?? "the agent timed out" };
  // Agents report a failed launch (exit ≠ 0, could not start) in `error`; a shell stage's own
  // non-zero exit is not one: it is its reply's `$status: fail`.
  if (result.error !== null) return { outcome: "failed", error: result.error };
  return null;
}
