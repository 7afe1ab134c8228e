import {
  type AgentLaunchResult,
  buildRetryPrompt,
  extractWithModel,
  formatSeconds,
  type LaunchAgentOptions,
  launchAgent,
  type PreviousVisit,
  safeExtractFrontmatter,
} from "@uwf/agent-kit";
import {
  type AgentRunOutcome,
  addUsage,
  type Config,
  type JsonSchemaObject,
  type RetryTrigger,
  type Usage,
} from "@uwf/protocol";
import type { RouteCheck } from "../routing/route-check.ts";
import { sleepUnlessAborted } from "../watch/sleep-unless-aborted.ts";
import { type RoleRetryPolicy, roleBackoffMs } from "./role-retry-policy.ts";

export interface AttemptRecord {
  request: string;
  result: AgentLaunchResult;
  /** Why this attempt did not count, or null for the one that did. */
  error: string | null;
}

export interface AgentRunResult<Route = unknown> {
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
  /** What `route` decided for the accepted reply; null when the run failed or there is no `route`. */
  route: Route | null;
}

export interface RunAgentWithRetriesOptions<Route = unknown> extends Omit<LaunchAgentOptions, "prompt" | "config"> {
  /** The whole-thread prompt; `continuationPrompt` (optional) is what an agent continuing its conversation gets. */
  prompt: string;
  schema: JsonSchemaObject;
  /** How often an invalid reply is sent back (config.yaml's `retries`), when the role has no policy of its own. */
  retries: number;
  /**
   * The role's `retries:`, which replaces `retries`: up to `max` retries in all, each for a trigger in
   * `on` — an invalid reply sent back, a failed or timed-out agent launched again after its backoff.
   */
  policy?: RoleRetryPolicy | null;
  /** The uwf home's config: agents read their providers from it, and it names the extraction model. */
  config: Config;
  /**
   * Decides where a reply that passed the schema leads (the moderator). A problem makes the reply
   * invalid exactly as a schema problem does: the agent is asked again with it.
   */
  route?: (fields: Record<string, unknown>, body: string) => Promise<RouteCheck<Route>>;
}

interface CheckedReply<Route> {
  fields: Record<string, unknown>;
  body: string;
  route: Route | null;
}

type ReplyCheck<Route> =
  | { success: true; reply: CheckedReply<Route> }
  | { success: false; problem: string; retry: boolean; stage: "schema" | "route" };

/**
 * Launches the agent and validates its reply, then routes it (`route`), asking again with the exact
 * problem when the reply is invalid or cannot be routed. A failed launch (exit ≠ 0, timeout, interrupt)
 * is not retried, unless the role's `policy` retries it: the agent is then launched afresh with the
 * whole prompt after the policy's backoff (an interrupt never is).
 * `timeoutMs` bounds the whole run, retries and the extraction model included: each attempt gets what
 * is left of it, and a reply still invalid when it has run out ends the run as a timeout. A role that
 * retries on `timeout` gives each attempt the whole `timeoutMs` instead.
 * An agent that keeps a conversation (a transcript or a session) is asked again within
 * it, with the problem alone; others get the whole prompt again with the problem appended.
 * When the reply is still invalid after the retries and config.yaml names an
 * `extractionModel`, that model extracts the fields (`extraction: "llm"`).
 */
export async function runAgentWithRetries<Route = unknown>(
  options: RunAgentWithRetriesOptions<Route>,
): Promise<AgentRunResult<Route>> {
  const { schema, retries, policy = null, prompt, config, route, continuationPrompt, ...launchOptions } = options;
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
    accepted: { reply: CheckedReply<Route>; extraction: "frontmatter" | "llm" } | null = null,
  ): AgentRunResult<Route> => ({
    outcome,
    error,
    attempts,
    fields: accepted?.reply.fields ?? null,
    body: accepted?.reply.body ?? null,
    usage,
    sessionId,
    transcript,
    extraction: accepted?.extraction ?? null,
    route: accepted?.reply.route ?? null,
  });
  const routeReply = async (fields: Record<string, unknown>, body: string): Promise<ReplyCheck<Route>> => {
    if (route === undefined) return { success: true, reply: { fields, body, route: null } };
    const routed = await route(fields, body);
    if (!routed.success) return { ...routed, stage: "route" };
    return { success: true, reply: { fields, body, route: routed.route } };
  };

  // The role's policy replaces config's `retries`: one count of retries, whatever their triggers.
  const maxRetries = policy === null ? retries : policy.max;
  const retriesOn = (trigger: RetryTrigger) => (policy === null ? trigger === "invalid-reply" : policy.on.has(trigger));
  // The time limit is the whole run's, retries included: each attempt gets what is left of it; or each
  // attempt's own, for a role that retries on timeout.
  const perAttempt = policy?.on.has("timeout") === true;
  const timeLimit = () => (launchOptions.timeoutMs > 0 ? Date.now() + launchOptions.timeoutMs : null);
  let deadline = timeLimit();
  const timeLeft = () => (deadline === null ? 0 : Math.max(1, deadline - Date.now()));
  const timeIsUp = () => deadline !== null && Date.now() >= deadline;
  const limitSpent = (attemptsMade: number) =>
    `the agent timed out: its time limit of ${formatSeconds(launchOptions.timeoutMs)} ran out over ${attemptsMade} attempts`;

  let request = prompt;
  // Only the first launch may continue the previous visit with the short prompt; a retry sends its own.
  let continuation = continuationPrompt;
  let previousVisit: PreviousVisit | undefined = launchOptions.previousVisit;
  let relaunches = 0;
  // `attempt` counts the retries made so far: replies sent back and, with a role's policy, relaunches.
  for (let attempt = 0; ; attempt++) {
    if (perAttempt && attempt > 0) deadline = timeLimit();
    const launched = await launchAgent({
      ...launchOptions,
      // The first attempt gets the limit as set (the deadline was taken a moment ago), so its message names it.
      timeoutMs: attempt === 0 || perAttempt ? launchOptions.timeoutMs : timeLeft(),
      config,
      prompt: request,
      attempt,
      ...(previousVisit === undefined ? {} : { previousVisit }),
      ...(continuation === undefined ? {} : { continuationPrompt: continuation }),
    });
    // What the agent was really sent: the whole thread, or the steps since when it continued its conversation.
    if (launched.continued === true && continuation !== undefined) request = continuation;
    continuation = undefined;
    const result = launched;
    addToUsage(result.usage);
    sessionId = result.sessionId ?? sessionId;
    transcript = result.transcript ?? transcript;
    const failure = launchFailure(result);
    if (failure !== null) {
      // A retry stopped at the deadline names the run's limit, not the little of it that was left.
      const error =
        failure.outcome === "timeout" && attempt > 0 && !perAttempt ? limitSpent(attempt + 1) : failure.error;
      attempts.push({ request, result, error });
      const trigger = failure.outcome === "timeout" ? "timeout" : failure.outcome === "failed" ? "agent-failed" : null;
      if (policy === null || trigger === null || attempt >= maxRetries || !retriesOn(trigger)) {
        return finish(failure.outcome, policy === null || attempt === 0 ? error : `${error} (${attempt + 1} attempts)`);
      }
      relaunches++;
      const delayMs = roleBackoffMs(policy, relaunches);
      launchOptions.onWarning?.(
        `${launchOptions.env.role}: ${error}; launching the agent again in ${formatSeconds(delayMs)} (retry ${attempt + 1} of ${maxRetries}, the role's retries)`,
      );
      const signal = launchOptions.signal ?? new AbortController().signal;
      if (!(await sleepUnlessAborted(delayMs, signal))) {
        return finish("interrupted", "interrupted");
      }
      if (!perAttempt && timeIsUp()) return finish("timeout", `${limitSpent(attempt + 1)}; the last attempt: ${error}`);
      // Launched afresh, as the first attempt was.
      request = prompt;
      continuation = continuationPrompt;
      previousVisit = launchOptions.previousVisit;
      continue;
    }
    const extracted = safeExtractFrontmatter(result.reply, schema);
    const checked: ReplyCheck<Route> = extracted.success
      ? await routeReply(extracted.value.fields, extracted.value.body)
      : { success: false, problem: extracted.error.problem, retry: true, stage: "schema" };
    attempts.push({ request, result, error: checked.success ? null : checked.problem });
    if (checked.success) return finish("ok", null, { reply: checked.reply, extraction: "frontmatter" });
    if (!checked.retry) return finish("invalid", `reply cannot be used: ${checked.problem}`);
    const sendBack = attempt < maxRetries && retriesOn("invalid-reply");
    if (sendBack && timeIsUp())
      return finish("timeout", `${limitSpent(attempt + 1)}; the last reply: ${checked.problem}`);
    if (sendBack) {
      const retryPrompt = buildRetryPrompt(checked.problem, schema, { previousReply: result.reply });
      if (keepsConversation(result)) {
        previousVisit = {
          sessionId: result.sessionId,
          transcript: result.transcript ?? null,
          shared: false,
          sessionUsage: result.sessionUsage ?? null,
        };
        request = retryPrompt;
      } else {
        request = `${prompt}\n\n${retryPrompt}`;
      }
      continue;
    }
    const invalid = `reply still invalid after ${attempt + 1} attempt(s): ${checked.problem}`;
    // The extraction model reads fields out of a reply; fields that passed the schema but lead nowhere it cannot mend.
    if (config.extractionModel === undefined || checked.stage === "route") return finish("invalid", invalid);
    if (timeIsUp()) return finish("timeout", `${limitSpent(attempt + 1)}; the last reply: ${checked.problem}`);
    const signals = [
      ...(launchOptions.signal === undefined ? [] : [launchOptions.signal]),
      ...(deadline === null ? [] : [AbortSignal.timeout(timeLeft())]),
    ];
    const fallback = await extractWithModel({
      config,
      home: launchOptions.env.home,
      reply: result.reply,
      schema,
      roleName: launchOptions.env.role,
      ...(signals.length === 0 ? {} : { signal: AbortSignal.any(signals) }),
    });
    addToUsage(fallback.usage);
    if (!fallback.success) {
      return finish("invalid", `${invalid}; extraction by ${config.extractionModel} failed too: ${fallback.problem}`);
    }
    const routed = await routeReply(fallback.fields, fallback.body);
    if (!routed.success) {
      return finish(
        "invalid",
        `${invalid}; the fields extracted by ${config.extractionModel} cannot be routed: ${routed.problem}`,
      );
    }
    return finish("ok", null, { reply: routed.reply, extraction: "llm" });
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
