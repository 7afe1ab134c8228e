import type { Store } from "@uwf/cas";
import { type BudgetLimits, type Config, END, type StepSummary, type ThreadRecord } from "@uwf/protocol";
import { checkBudget } from "./check-budget.ts";
import { chooseStep } from "./choose-step.ts";
import { commitStep } from "./commit-step.ts";
import { HeadConflictError } from "./head-conflict-error.ts";
import { loadStepState } from "./load-step-state.ts";
import { runStepAgent, type StepAgentCallbacks } from "./run-step-agent.ts";
import { withThreadLease } from "./with-thread-lease.ts";

export interface StepThreadOptions extends StepAgentCallbacks {
  store: Store;
  config: Config;
  home: string;
  threadId: string;
  /** `--agent`: used for roles that name no agent of their own. */
  agentFlag?: string;
  timeoutSeconds?: number;
  /** Set by `uwf resume`: the user's answer to a suspended role, or the prompt to continue an ended thread. */
  resumeAnswer?: string;
  /** Set by `uwf resume --max-…`: limits raised before the step, which lift a suspension for the budget. */
  resumeLimits?: Partial<BudgetLimits>;
  signal: AbortSignal;
  host: string;
  now(): Date;
  /** Called as each phase of the step ends, with its name (`UWF_TRACE` in the CLI); for finding where time goes. */
  trace?(phase: string): void;
}

export type StepThreadOutcome =
  | { kind: "stepped"; record: ThreadRecord; step: StepSummary }
  | { kind: "ended"; record: ThreadRecord }
  /** The step would have started at or over a limit: the thread is suspended for its budget, no agent ran. */
  | { kind: "suspended"; record: ThreadRecord };

/**
 * How long a step's lease lives without renewal. The stepper renews it every quarter of this while
 * the agent runs, so a step of any length keeps it, and a stepper that died on another host blocks
 * the thread for at most this long (on this host its lease is taken over at once). (The head's
 * compare-and-swap keeps the thread correct even if a lease were lost; the lease is what makes a
 * second stepper fail at once instead of after its run.)
 */
export const STEP_LEASE_TTL_MS = 60_000;

/**
 * DESIGN §4's step algorithm, in five phases under the thread's lease: load the thread, check its
 * budget (suspending it instead of going over a limit), choose the role, agent and prompt, run the agent (validating and routing its reply, retrying with either problem), commit the nodes and
 * compare-and-swap the head — with the record `ended` at once when the reply routes to `$END`.
 */
export async function stepThread(options: StepThreadOptions): Promise<StepThreadOutcome> {
  const { store, threadId } = options;
  return withThreadLease(
    {
      refs: store.refs,
      threadId,
      ttlMs: STEP_LEASE_TTL_MS,
      host: options.host,
      now: options.now,
      signal: options.signal,
    },
    async (lease) => {
      options.trace?.("lease taken");
      const { resumeAnswer, resumeLimits } = options;
      const resuming = resumeAnswer !== undefined || resumeLimits !== undefined;
      const resume = resuming ? { answer: resumeAnswer } : undefined;
      const loaded = await loadStepState(store, threadId, { resume, trace: options.trace });
      const budget = await checkBudget(loaded, lease, options);
      if (budget.kind === "suspended") return budget;
      const { state } = budget;
      const planned = await chooseStep(state, options);
      if (planned.ended) return endThread(store, state.record, options.now());
      const run = await runStepAgent(state, planned, lease, options);
      return { kind: "stepped", ...(await commitStep(state, planned, run, lease, options)) };
    },
  );
}

/** The moderator routes to `$END` before any agent runs (a record an older uwf left `active`): the record is marked ended. */
async function endThread(store: Store, record: ThreadRecord, now: Date): Promise<StepThreadOutcome> {
  const ended = { status: "ended", next: END, updatedAt: now.toISOString() } as const;
  if (!(await store.refs.updateThread(record.id, record.head, ended)))
    throw new HeadConflictError(record.id, record.head, record.head);
  return { kind: "ended", record: { ...record, ...ended } };
}
