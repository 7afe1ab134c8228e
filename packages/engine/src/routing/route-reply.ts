import { InternalError, type ThreadRecord, UwfError, type WorkflowNode } from "@uwf/protocol";
import {
  type CompiledWorkflow,
  EdgePromptError,
  type ModeratorDecision,
  type ModeratorStep,
  NoTransitionError,
  pickNextRole,
  type TriedTransition,
} from "@uwf/workflow";
import type { ThreadHistory } from "../history/thread-history.ts";
import { type WithModeratorHistoryOptions, withModeratorHistory } from "../history/with-moderator-history.ts";
import { isRoutingError } from "./is-routing-error.ts";
import type { RouteCheck } from "./route-check.ts";

export interface RouteReplyOptions {
  compiled: CompiledWorkflow;
  record: Pick<ThreadRecord, "id" | "workflow">;
  start: WithModeratorHistoryOptions["start"];
  /** The thread before the reply. */
  history: ThreadHistory;
  /** The reply, as the step it would become. */
  step: ModeratorStep;
  /** For a join's reply: the branches it joined, which its role's conditions see as `branches`. */
  branches?: unknown;
}

/**
 * Where a reply leads (DESIGN §4): the moderator picks the edge from the reply's role and renders
 * its prompt, with the reply as the newest step, before anything is written. A reply that leads
 * nowhere is a problem to send back to the agent, as a schema problem is.
 */
export async function routeReply(options: RouteReplyOptions): Promise<RouteCheck<ModeratorDecision>> {
  const { compiled, record, start, history, step, branches } = options;
  try {
    const decision = await withModeratorHistory({ record, start, history, next: step, branches }, (view) =>
      pickNextRole(compiled, view, { mode: "continue" }),
    );
    return { success: true, route: decision };
  } catch (error) {
    const problem = describeRoutingProblem(error, { workflow: compiled.workflow, fields: step.output });
    if (problem !== null) return { success: false, problem, retry: true };
    if (UwfError.isInstance(error) && error.code !== InternalError.code) {
      return { success: false, problem: error.message, retry: false };
    }
    throw error;
  }
}

/**
 * The routing problem as the agent (or the user) should read it: which `$status` values have an
 * edge, which field an edge prompt needed. Null for an error that is not about the reply.
 */
export function describeRoutingProblem(
  error: unknown,
  reply: { workflow: WorkflowNode; fields: Record<string, unknown> },
): string | null {
  if (!isRoutingError(error)) return null;
  if (error instanceof NoTransitionError) return describeNoTransition(error);
  if (error instanceof EdgePromptError) return describeEdgePrompt(error, reply.workflow, reply.fields);
  return `routing the reply failed: ${(error as UwfError).message}`;
}

function describeNoTransition(error: NoTransitionError): string {
  const { role, tried, status } = error.data as { role: string; tried: TriedTransition[]; status: unknown };
  const statuses = [...new Set(tried.flatMap((edge) => (edge.status === null ? [] : [edge.status])))];
  if (statuses.length === 0) return error.message;
  const answers = `the edges answer: ${statuses.join(", ")}`;
  const others = tried.filter((edge) => edge.status === null);
  const otherwise =
    others.length === 0
      ? ""
      : `, and no edge without a status holds (${others.map((edge) => `condition ${edge.condition ?? "none"} → ${edge.role}`).join(", ")})`;
  if (status === null) return `the reply has no $status${otherwise}; ${answers}`;
  if (!statuses.includes(String(status))) {
    return `$status ${JSON.stringify(status)} has no edge from role ${role}${otherwise}; ${answers}`;
  }
  return `${error.message}; ${answers}`;
}

/** Names an edge prompt reads from the context that are not the reply's fields. */
const CONTEXT_NAMES = new Set(["start", "thread", "inputs", "_body"]);
/** Liquid's own words that open a tag without naming a variable (`{% endif %}`, `{% else %}`). */
const LIQUID_TAG_WORDS = new Set([
  "else",
  "endif",
  "endunless",
  "endfor",
  "endcase",
  "endcapture",
  "endraw",
  "endcomment",
  "break",
  "continue",
]);
/** The variable a Liquid output (`{{ name ...`) or tag (`{% if name ...`) starts with. */
const TEMPLATE_VARIABLE = /\{[{%]-?\s*(?:(?:if|unless|elsif|for\s+\w+\s+in|case)\s+)?([A-Za-z_][A-Za-z0-9_]*)/g;

function describeEdgePrompt(error: EdgePromptError, workflow: WorkflowNode, fields: Record<string, unknown>): string {
  const { from, to, reason } = error.data as { from: string; to: string; reason: string };
  const edge = `the edge from role ${from} to ${to}`;
  const undefinedVariable = /undefined variable: ([^\s,]+)/.exec(reason)?.[1];
  if (undefinedVariable !== undefined && !CONTEXT_NAMES.has(undefinedVariable.split(".")[0] ?? "")) {
    return `${edge} cannot render its prompt: it needs the field "${undefinedVariable}", which the reply does not set`;
  }
  if (!reason.startsWith("rendered empty")) return error.message;
  const missing = new Set<string>();
  for (const transition of workflow.graph[from] ?? []) {
    if (transition.role !== to) continue;
    for (const [, name] of transition.prompt.matchAll(TEMPLATE_VARIABLE)) {
      if (name === undefined || CONTEXT_NAMES.has(name) || LIQUID_TAG_WORDS.has(name)) continue;
      const value = fields[name];
      if (value === undefined || value === null || value === "") missing.add(name);
    }
  }
  if (missing.size === 0) return `${edge} rendered an empty prompt from the reply; the next role needs a prompt`;
  const names = [...missing].map((name) => `"${name}"`).join(", ");
  return `${edge} rendered an empty prompt: it needs the field${missing.size === 1 ? "" : "s"} ${names}, which the reply does not set`;
}
