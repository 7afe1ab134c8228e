import { NodeNotFoundError, type Store } from "@uwf/cas";
import {
  type BranchGroup,
  type BudgetReport,
  budgetReport,
  type StepSummary,
  type SuspensionView,
  type ThreadCounts,
  type ThreadRecord,
  type ThreadStartNode,
} from "@uwf/protocol";
import { loadSuspensionView } from "../answers/read-suspension.ts";
import { readSuspensionWait, type SuspensionWait } from "../answers/read-suspension-wait.ts";
import { countThread } from "../branches/count-thread.ts";
import { loadBranchGroups } from "../branches/load-branch-groups.ts";
import { loadStepSummaries } from "../history/load-step-summaries.ts";
import { storedNodeAs } from "../history/stored-node.ts";
import { loadBudgetReport } from "./load-budget-report.ts";
import { loadWaitingFor, type WaitingFor } from "./load-waiting-for.ts";

/** What of a thread a surface shows, beyond its record and budget (each part costs reads; see loadThreadView). */
export interface ThreadViewParts {
  /** Check the head first: `read` reads and re-hashes it, `exists` only asks the store (a large listing); throws NodeNotFoundError when it is missing. */
  head?: "read" | "exists";
  /** Every step of its chain, oldest first (`log`). */
  steps?: boolean;
  /** Its steps counted by the one rule every view uses (countThread). */
  counts?: boolean;
  /** Its fan-outs and their branches (loadBranchGroups). */
  branches?: boolean;
  /** The question it waits on and the answer it takes, when it waits for one (loadSuspensionView). */
  suspension?: boolean;
  /** Of a suspended thread whose role has a `suspendTimeout`: until when it waits (readSuspensionWait). */
  wait?: boolean;
  /** The start inputs (one more read: the start node). */
  inputs?: boolean;
  /** Of a waiting parent: its last fan-out's pending branches, and the questions of those suspended. */
  waitingFor?: boolean;
}

/**
 * A thread as every surface shows it (DESIGN §1, thread view): its record, its budget with what it and
 * its branches spent (loadBudgetReport, the figures its steps are checked against), and the parts asked
 * for. `show`, `log`, `list`, `cancel` and `step` (through stepUntilDone's `view`) build their results from
 * it, and the web UI and `uwf mcp` get it by running those commands.
 */
export interface ThreadView {
  record: ThreadRecord;
  budget: BudgetReport | undefined;
  steps?: StepSummary[];
  counts?: ThreadCounts;
  branches?: BranchGroup[];
  /** Null when the thread waits for no answer. */
  suspension?: SuspensionView | null;
  /** Null unless it is suspended by a role with a `suspendTimeout`. */
  wait?: SuspensionWait | null;
  inputs?: Record<string, unknown>;
  /** Absent unless the thread is `waiting` and has a fan-out. */
  waitingFor?: WaitingFor;
}

/** Reads the parts of a thread's view that `parts` asks for, in one place, so every surface counts one way. */
export async function loadThreadView(
  store: Store,
  record: ThreadRecord,
  parts: ThreadViewParts = {},
): Promise<ThreadView> {
  if (parts.head === "read") await store.objects.get(record.head);
  else if (parts.head === "exists" && !(await store.objects.has(record.head))) throw new NodeNotFoundError(record.head);
  const view: ThreadView = { record, budget: undefined };
  // A suspension with a suspendTimeout: its head is read once a process (readSuspensionWait's cache).
  if (parts.wait === true)
    view.wait = record.status === "suspended" ? await readSuspensionWait(store.objects, record) : null;
  view.budget = await loadBudgetReport(store, record);
  if (parts.steps === true) view.steps = await loadStepSummaries(store, record.head);
  if (parts.inputs === true) {
    // The start inputs live in the start node, not the record.
    // Read as stored (storedNodeAs): no schema library on the hot commands that load a view (`step`, `list`).
    const start = storedNodeAs<ThreadStartNode>("thread-start/1", record.start, await store.objects.get(record.start));
    if (start.inputs !== undefined) view.inputs = start.inputs;
  }
  if (parts.branches === true) view.branches = await loadBranchGroups(store, record);
  if (parts.suspension === true) view.suspension = await loadSuspensionView(store, record);
  if (parts.counts === true) view.counts = await countThread(store, record);
  if (parts.waitingFor === true && record.status === "waiting") {
    const waitingFor = await loadWaitingFor(store, record);
    if (waitingFor !== null) view.waitingFor = waitingFor;
  }
  return view;
}

/** The view the record alone gives, with no read: its own budget figures (a batch's rows, `log --follow`). */
export function recordView(record: ThreadRecord): ThreadView {
  return { record, budget: budgetReport(record) };
}
