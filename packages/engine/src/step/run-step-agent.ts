import type { AgentActivity } from "@uwf/agent-kit";
import type { Store } from "@uwf/cas";
import { type BranchesJoinedEvent, type BranchesStartedEvent, type Config, END, SUSPEND } from "@uwf/protocol";
import { buildReplySchema, type ModeratorDecision } from "@uwf/workflow";
import { ownBranchSteps } from "../branches/branch-steps.ts";
import type { HeldLease } from "../lease/with-thread-lease.ts";
import { routeReply } from "../routing/route-reply.ts";
import { checkStoreWritable } from "./check-store-writable.ts";
import type { PlannedStep } from "./choose-step.ts";
import { findPreviousVisit, forkPoint } from "./find-previous-visit.ts";
import type { StepState } from "./load-step-state.ts";
import { roleRetryPolicy } from "./role-retry-policy.ts";
import { type AgentRunResult, runAgentWithRetries } from "./run-agent-with-retries.ts";
import { openStepOutputSpool } from "./step-output-spool.ts";
import { suspendOnTimeout } from "./suspend-on-timeout.ts";

/** What routing made of the accepted reply: where it leads (null when it suspends), and when it arrived. */
export interface RoutedReply {
  decision: ModeratorDecision | null;
  completedAt: Date;
}

/** The agent's run for a step, and when it started. */
export interface StepRun {
  startedAt: Date;
  run: AgentRunResult<RoutedReply>;
}

/** What a step tells its caller while its agent runs. */
export interface StepAgentCallbacks {
  /** When the agent starts, as it works (its turns and last tool, for agents that report them), and null when done. */
  onProgress(
    status: { role: string; agent: string; startedAt: number; step: number; activity?: AgentActivity } | null,
  ): void;
  onStderr(chunk: string): void;
  /** What the agent reports that the user should see without `-v`: tool calls refused, a conversation started afresh. */
  onWarning?(message: string): void;
  /** Right before the agent starts, once the step is sure to run it (awaited: the caller may print it). */
  onStarted?(started: StepStart): Promise<void>;
  /**
   * A fan-out's branches exist: made after the step that fanned out, or completed by a later touch of a
   * parent whose branches a crash left unmade (awaited).
   */
  onBranchesStarted?(event: Omit<BranchesStartedEvent, "type" | "worker">): Promise<void> | void;
  /** A waiting parent's join policy was decided: it is active for its join, or failed (awaited). */
  onBranchesJoined?(event: Omit<BranchesJoinedEvent, "type" | "worker">): Promise<void> | void;
}

export interface RunStepAgentOptions extends StepAgentCallbacks {
  store: Store;
  config: Config;
  home: string;
  now(): Date;
  /** Called as each phase of the step ends, with its name (`UWF_TRACE` in the CLI); for finding where time goes. */
  trace?(phase: string): void;
}

/** A step whose agent is starting. */
export interface StepStart {
  /** The thread whose step it is: the one stepped, or one of its branches when a waiting parent was stepped. */
  thread: string;
  number: number;
  role: string;
  agent: string;
  at: Date;
}

/**
 * The step's third phase: checks the store can take the step, then runs the agent, validating and
 * routing its reply and asking again with either problem, under the role's `retries:` when it has
 * them (config's `retries` otherwise). Stopped when the lease is lost. A run that ran out of time for a
 * role with `onTimeout: suspend` becomes that role's suspension (suspendOnTimeout).
 */
export async function runStepAgent(
  state: StepState,
  planned: PlannedStep,
  lease: HeldLease,
  options: RunStepAgentOptions,
): Promise<StepRun> {
  const { store, config } = options;
  const { record, chain, history, workflow, compiled } = state;
  const { roleName, agent, prompt, continuationPrompt, number } = planned;
  await checkStoreWritable(store.objects, planned.storedPrompt);
  options.trace?.("store checked");
  const startedAt = options.now();
  await options.onStarted?.({ thread: state.record.id, number, role: roleName, agent: agent.alias, at: startedAt });
  const progress = { role: roleName, agent: agent.alias, startedAt: startedAt.getTime(), step: number };
  options.onProgress(progress);
  const role = workflow.roles[roleName];
  const output = await openStepOutputSpool({ refs: store.refs, thread: record.id, step: number, now: options.now });
  const run = await runAgentWithRetries<RoutedReply>({
    config,
    spec: agent.spec,
    alias: agent.alias,
    prompt,
    ...(continuationPrompt === null ? {} : { continuationPrompt }),
    schema: buildReplySchema(workflow, roleName),
    retries: config.retries,
    policy: roleRetryPolicy(role),
    cwd: chain.start.cwd,
    env: { thread: record.id, role: roleName, step: number, home: options.home },
    timeoutMs: agent.timeoutMs,
    // Also aborted when the lease is lost: another stepper may hold the thread then.
    signal: lease.signal,
    onSpawn: lease.recordAgent,
    previousVisit: await findPreviousVisit(store.objects, history, roleName, forkPoint(chain, record)),
    onStderr: (chunk) => {
      output.write("stderr", chunk);
      options.onStderr(chunk);
    },
    onStdout: (chunk) => output.write("stdout", chunk),
    onActivity: (activity) => options.onProgress({ ...progress, activity }),
    ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
    scenario: {
      stepIndex: history.length,
      routedRole: roleName,
      baseDir: agent.baseDir ?? chain.start.cwd,
      ...(record.branchOf === undefined
        ? {}
        : { branch: { key: record.branchOf.branch, index: history.length - sharedSteps(record) } }),
    },
    route: async (fields, body) => {
      const completedAt = options.now();
      // A role that suspends goes nowhere yet: it runs again when the user answers.
      if (fields.$status === SUSPEND) return { success: true, route: { decision: null, completedAt } };
      const step = {
        role: roleName,
        output: fields,
        body,
        agent: agent.alias,
        startedAt: startedAt.toISOString(),
        completedAt: completedAt.toISOString(),
        // The step that answers a typed suspension: its conditions read `steps[-1].answer`.
        ...(planned.answer === null ? {} : { answer: planned.answer }),
      };
      // A `role:` branch's reply is its result: the branch ends, whatever the role's own edges say.
      if (planned.endsBranch) return { success: true, route: { decision: branchEnd(roleName), completedAt } };
      const branches = planned.join === null ? undefined : planned.join.value;
      const routed = await routeReply({ compiled, record, start: chain.start, history, step, branches });
      return routed.success ? { success: true, route: { decision: routed.route, completedAt } } : routed;
    },
  }).finally(() => output.close());
  options.trace?.("agent done, reply checked and routed");
  options.onProgress(null);
  if (run.outcome === "timeout" && role?.onTimeout === "suspend") {
    return { startedAt, run: suspendOnTimeout(run, agent.timeoutMs, { decision: null, completedAt: options.now() }) };
  }
  return { startedAt, run };
}

/** The decision a `role:` branch's reply makes: `$END`, by no edge of the workflow. */
function branchEnd(role: string): ModeratorDecision {
  return { role: END, prompt: "", transition: { role: END, condition: null, status: null, prompt: "" }, from: role };
}

/** The steps of a branch's chain that are its parent's (a `role:` branch's history up to its fan-out step). */
function sharedSteps(record: Parameters<typeof ownBranchSteps>[0]): number {
  return record.stepCount - ownBranchSteps(record);
}
