import type { Store } from "@uwf/cas";
import {
  type AgentRunNode,
  answerSchemaOf,
  type OutputNode,
  parseDuration,
  type Role,
  SUSPEND,
  type SuspensionView,
  suspensionDeadline,
  type ThreadRecord,
  type ThreadStepNode,
  type WorkflowNode,
} from "@uwf/protocol";
import { REASON_FIELD, restoreFieldOrder, STATUS_FIELD } from "@uwf/workflow";
import { storedNodeAs } from "../history/stored-node.ts";

/** The failure of a thread whose suspension ran out unanswered with no `$timeout` edge: it still takes an answer. */
const SUSPEND_TIMEOUT = "suspend-timeout";

/** A role's suspension as the store holds it: the suspending step, its role and what it asked. */
export interface Suspension {
  role: string;
  /** The role's definition in the thread's workflow; undefined for a role the workflow no longer has. */
  definition: Role | undefined;
  reason: string | null;
  /** The suspending reply's fields apart from `$status` and `reason`. */
  ask: Record<string, unknown>;
  /** When the suspending step completed. */
  suspendedAt: string;
  /**
   * The suspension is the role's agent running out of time (`onTimeout: suspend`), not its question: it
   * takes text (how to go on) whatever the role's `answer:` says.
   */
  agentTimedOut: boolean;
}

/** The JSON Schema an answer to this suspension is checked against; null when it takes text (`resume -p`). */
export function suspensionAnswerSchema(suspension: Suspension): Record<string, unknown> | null {
  return suspension.agentTimedOut ? null : answerSchemaOf(suspension.definition ?? {});
}

/**
 * Whether a thread waits for a person's answer to a role: suspended by a role (not by its budget),
 * or failed because that suspension ran out (`suspend-timeout`), which is still answered late.
 */
export function isAnswerable(record: ThreadRecord): boolean {
  if (record.status === "suspended") return (record.budget?.exceeded ?? null) === null;
  return record.status === "failed" && record.failure?.code === SUSPEND_TIMEOUT;
}

/** The suspension an answerable thread waits on (its head step); null for any other thread. */
export async function readSuspension(store: Store, record: ThreadRecord): Promise<Suspension | null> {
  if (!isAnswerable(record)) return null;
  const head = await store.objects.get(record.head);
  if (head === null || (head as { type?: unknown }).type !== "thread-step/1") return null;
  const step = storedNodeAs<ThreadStepNode>("thread-step/1", record.head, head);
  const output = storedNodeAs<OutputNode>("output/1", step.output, await store.objects.get(step.output)).fields;
  if (output[STATUS_FIELD] !== SUSPEND) return null;
  const workflow = storedNodeAs<WorkflowNode>(
    "workflow/1",
    record.workflowAddress,
    await store.objects.get(record.workflowAddress),
  );
  const ask: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(output)) {
    if (name !== STATUS_FIELD && name !== REASON_FIELD) ask[name] = value;
  }
  const reason = output[REASON_FIELD];
  const run = storedNodeAs<AgentRunNode>("agent-run/1", step.run, await store.objects.get(step.run));
  return {
    agentTimedOut: run.outcome === "timeout",
    role: step.role,
    definition: workflow.roles[step.role],
    reason: typeof reason === "string" ? reason : record.reason,
    ask,
    suspendedAt: step.completedAt,
  };
}

/** What `show --json` and a step's result give of a suspension, for a bot or a form. */
export function toSuspensionView(suspension: Suspension): SuspensionView {
  const timeout = suspension.definition?.suspendTimeout ?? null;
  return {
    role: suspension.role,
    reason: suspension.reason,
    ask: suspension.ask,
    answerSchema: readableSchema(suspensionAnswerSchema(suspension)),
    timeout,
    deadline: suspensionDeadline(suspension.suspendedAt, timeout === null ? null : parseDuration(timeout)),
  };
}

/** A schema as a form reads it: its fields in the author's order, without the keyword that records it. */
function readableSchema(schema: Record<string, unknown> | null): Record<string, unknown> | null {
  return schema === null ? null : restoreFieldOrder(schema);
}

/** The suspension view of a thread that waits for an answer; null for any other (suspended for its budget, say). */
export async function loadSuspensionView(store: Store, record: ThreadRecord): Promise<SuspensionView | null> {
  const suspension = await readSuspension(store, record);
  return suspension === null ? null : toSuspensionView(suspension);
}
