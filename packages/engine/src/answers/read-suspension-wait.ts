import type { ObjectStore } from "@uwf/cas";
import {
  type OutputNode,
  parseDuration,
  SUSPEND,
  suspensionDeadline,
  type ThreadRecord,
  type ThreadStepNode,
  type WorkflowNode,
} from "@uwf/protocol";
import { storedNodeAs } from "../history/stored-node.ts";

/** How long a suspension waits: its role, when it began, its role's `suspendTimeout` as written, and when it runs out. */
export interface SuspensionWait {
  role: string;
  /** When the suspending step completed. */
  suspendedAt: string;
  /** The role's `suspendTimeout` as written (`24h`). */
  after: string;
  /** `suspendedAt` plus `after`. */
  deadline: string;
}

/** What a head step says about a suspension, by the head's address: nodes never change, so a worker's rounds read each once. */
const headCache = new Map<string, { role: string; completedAt: string } | null>();
/** Each workflow's `suspendTimeout`s by role (null: none has one), by the workflow's address. */
const workflowCache = new Map<string, Record<string, string> | null>();
const CACHE_LIMIT = 10_000;

/**
 * The wait of a thread suspended by a role with `suspendTimeout` (its head a `$SUSPEND` reply); null for
 * a thread suspended for its budget, a role without one, or any other head. A workflow with no
 * `suspendTimeout` anywhere is read once; so is each head.
 */
export async function readSuspensionWait(
  objects: ObjectStore,
  record: Pick<ThreadRecord, "head" | "workflowAddress" | "budget">,
): Promise<SuspensionWait | null> {
  if ((record.budget?.exceeded ?? null) !== null) return null;
  const timeouts = await roleTimeouts(objects, record.workflowAddress);
  if (timeouts === null) return null;
  const head = await suspendingStep(objects, record.head);
  if (head === null) return null;
  const after = timeouts[head.role];
  if (after === undefined) return null;
  const deadline = suspensionDeadline(head.completedAt, parseDuration(after));
  if (deadline === null) return null;
  return { role: head.role, suspendedAt: head.completedAt, after, deadline };
}

async function roleTimeouts(objects: ObjectStore, address: string): Promise<Record<string, string> | null> {
  if (workflowCache.has(address)) return workflowCache.get(address) ?? null;
  const workflow = storedNodeAs<WorkflowNode>("workflow/1", address, await objects.get(address));
  const timeouts: Record<string, string> = {};
  for (const [name, role] of Object.entries(workflow.roles)) {
    if (role.suspendTimeout !== undefined) timeouts[name] = role.suspendTimeout;
  }
  const found = Object.keys(timeouts).length === 0 ? null : timeouts;
  remember(workflowCache, address, found);
  return found;
}

async function suspendingStep(
  objects: ObjectStore,
  address: string,
): Promise<{ role: string; completedAt: string } | null> {
  if (headCache.has(address)) return headCache.get(address) ?? null;
  const node = (await objects.get(address)) as { type?: unknown };
  let found: { role: string; completedAt: string } | null = null;
  if (node?.type === "thread-step/1") {
    const step = node as ThreadStepNode;
    const output = storedNodeAs<OutputNode>("output/1", step.output, await objects.get(step.output));
    if (output.fields.$status === SUSPEND) found = { role: step.role, completedAt: step.completedAt };
  }
  remember(headCache, address, found);
  return found;
}

function remember<Value>(cache: Map<string, Value>, key: string, value: Value): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
}
