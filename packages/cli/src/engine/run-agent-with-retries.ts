import {
  type AgentLaunchResult,
  buildRetryPrompt,
  extractFrontmatter,
  type LaunchAgentOptions,
  launchAgent,
} from "@uwf/agent-kit";
import { type AgentRunOutcome, addUsage, type JsonSchemaObject, type Usage } from "@uwf/protocol";

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
}

export interface RunAgentWithRetriesOptions extends Omit<LaunchAgentOptions, "prompt"> {
  prompt: string;
  schema: JsonSchemaObject;
  retries: number;
}

/**
 * Launches the agent and validates its reply, asking again with the exact problem
 * when the reply is invalid. A failed launch (exit ≠ 0, timeout, interrupt) is not retried.
 */
export async function runAgentWithRetries(options: RunAgentWithRetriesOptions): Promise<AgentRunResult> {
  const { schema, retries, prompt, ...launchOptions } = options;
  const attempts: AttemptRecord[] = [];
  let usage: Usage | null = null;
  let sessionId: string | null = null;
  let transcript: unknown[] | null = null;
  let request = prompt;
  for (let attempt = 0; ; attempt++) {
    const result = await launchAgent({ ...launchOptions, prompt: request, attempt });
    if (result.usage !== null) usage = usage === null ? result.usage : addUsage(usage, result.usage);
    sessionId = result.sessionId ?? sessionId;
    transcript = result.transcript ?? transcript;
    const failure = launchFailure(result);
    if (failure !== null) {
      attempts.push({ request, result, error: failure.error });
      return {
        outcome: failure.outcome,
        error: failure.error,
        attempts,
        fields: null,
        body: null,
        usage,
        sessionId,
        transcript,
      };
    }
    const extracted = extractFrontmatter(result.reply, schema);
    if (extracted.success) {
      attempts.push({ request, result, error: null });
      return {
        outcome: "ok",
        error: null,
        attempts,
        fields: extracted.fields,
        body: extracted.body,
        usage,
        sessionId,
        transcript,
      };
    }
    attempts.push({ request, result, error: extracted.problem });
    if (attempt >= retries) {
      const error = `reply still invalid after ${attempt + 1} attempt(s): ${extracted.problem}`;
      return { outcome: "invalid", error, attempts, fields: null, body: null, usage, sessionId, transcript };
    }
    request = `${prompt}\n\n${buildRetryPrompt(extracted.problem, schema)}`;
  }
}

function launchFailure(result: AgentLaunchResult): { outcome: AgentRunOutcome; error: string } | null {
  if (result.interrupted) return { outcome: "interrupted", error: "interrupted" };
  if (result.timedOut) return { outcome: "timeout", error: result.error ?? "the agent timed out" };
  // Agents report a failed launch (exit ≠ 0, could not start) in `error`; a shell stage's own
  // non-zero exit is not one: it is its reply's `$status: fail`.
  if (result.error !== null) return { outcome: "failed", error: result.error };
  return null;
}
