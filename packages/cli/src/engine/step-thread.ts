import {
  type AgentActivity,
  buildContinuationPrompt,
  buildReplySchema,
  compileWorkflow,
  firstShownStep,
  type ModeratorDecision,
  type NamedStep,
  resolveAgent,
  UnknownRoleError,
} from "@uwf/agent-kit";
import type { Store } from "@uwf/cas";
import {
  type Address,
  addUsage,
  type Config,
  END,
  type StepSummary,
  SUSPEND,
  type ThreadRecord,
  type ThreadStepNode,
  type Usage,
  type WorkflowNode,
  ZERO_USAGE,
} from "@uwf/protocol";
import { AgentFailedError } from "../errors/agent-failed-error.ts";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { InterruptedError } from "../errors/interrupted-error.ts";
import { ThreadNotFoundError } from "../errors/thread-not-found-error.ts";
import { ThreadStrandedError } from "../errors/thread-stranded-error.ts";
import { trace } from "../trace.ts";
import { buildAgentRunNode } from "./build-agent-run-node.ts";
import { checkSteppable } from "./check-steppable.ts";
import { checkStoreWritable } from "./check-store-writable.ts";
import { type ChooseStepRoleOptions, chooseStepRole, type StepRole } from "./choose-step-role.ts";
import { findPreviousVisit, forkPoint } from "./find-previous-visit.ts";
import type { HistoryStep } from "./load-history.ts";
import { toStepSummary } from "./load-step-summaries.ts";
import { NodeBatch } from "./node-batch.ts";
import { readChain } from "./read-chain.ts";
import { rememberChainIndex } from "./remember-chain-index.ts";
import { describeRoutingProblem, routeReply } from "./route-reply.ts";
import { runAgentWithRetries } from "./run-agent-with-retries.ts";
import { storedNodeAs } from "./stored-node.ts";
import { ThreadHistory } from "./thread-history.ts";
import { withThreadLease } from "./with-thread-lease.ts";

export interface StepThreadOptions {
  store: Store;
  config: Config;
  home: string;
  threadId: string;
  /** `--agent`: used for roles that name no agent of their own. */
  agentFlag?: string;
  timeoutSeconds?: number;
  /** Set by `uwf resume`: the user's answer to a suspended role, or the prompt to continue an ended thread. */
  resumeAnswer?: string;
  signal: AbortSignal;
  host: string;
  now(): Date;
  /** When the agent starts, as it works (its turns and last tool, for agents that report them), and null when done. */
  onProgress(
    status: { role: string; agent: string; startedAt: number; step: number; activity?: AgentActivity } | null,
  ): void;
  onStderr(chunk: string): void;
  /** What the agent reports that the user should see without `-v`: tool calls refused, a conversation started afresh. */
  onWarning?(message: string): void;
}

export type StepThreadOutcome =
  | { kind: "stepped"; record: ThreadRecord; step: StepSummary }
  | { kind: "ended"; record: ThreadRecord };

/**
 * How long a step's lease lives without renewal. The stepper renews it every quarter of this while
 * the agent runs, so a step of any length keeps it, and a stepper that died on another host blocks
 * the thread for at most this long (on this host its lease is taken over at once). (The head's
 * compare-and-swap keeps the thread correct even if a lease were lost; the lease is what makes a
 * second stepper fail at once instead of after its run.)
 */
export const STEP_LEASE_TTL_MS = 60_000;

/**
 * DESIGN §4's step algorithm: lease → moderator → agent → validate and route the reply (retrying the
 * agent with either problem) → write → compare-and-swap the head, with the record `ended` at once
 * when the reply routes to `$END`.
 */
export async function stepThread(options: StepThreadOptions): Promise<StepThreadOutcome> {
  const { store, config, threadId } = options;
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
      trace("lease taken");
      const record = await store.refs.getThread(threadId);
      if (record === null) throw new ThreadNotFoundError(threadId);
      const mode = checkSteppable(record, options.resumeAnswer);
      const chain = await readChain(store, record.head, { thread: record });
      const workflow = storedNodeAs<WorkflowNode>(
        "workflow/1",
        record.workflowAddress,
        await store.objects.get(record.workflowAddress),
      );
      const history = new ThreadHistory(store.objects, chain);
      // The newest step is what the moderator starts from and what every prompt shows.
      if (history.length > 0) await history.step(history.length - 1);
      trace("chain read");
      const compiled = compileWorkflow(workflow);
      const chosen = await chooseOrExplain({
        compiled,
        record,
        chain,
        history,
        mode,
        resumeAnswer: options.resumeAnswer,
      });
      trace("next role chosen");
      if (chosen.ended) {
        const ended = { status: "ended", next: END, updatedAt: options.now().toISOString() } as const;
        if (!(await store.refs.updateThread(threadId, record.head, ended)))
          throw new HeadConflictError(threadId, record.head, record.head);
        return { kind: "ended", record: { ...record, ...ended } };
      }
      const { roleName, edgePrompt } = chosen;
      const last = history.steps.at(-1);

      const role = workflow.roles[roleName];
      if (role === undefined) throw new UnknownRoleError(workflow.name, roleName);
      const agent = resolveAgent({
        config,
        workflowName: workflow.name,
        role,
        roleName,
        flagAlias: options.agentFlag,
        timeoutSeconds: options.timeoutSeconds,
        home: options.home,
      });
      const stepNumber = history.length + 1;
      const prompt = buildContinuationPrompt({
        workflow,
        roleName,
        task: chain.start.prompt,
        inputs: chain.start.inputs,
        history: await promptHistory(history, roleName),
        edgePrompt,
      });
      trace("prompt built");
      await checkStoreWritable(store.objects, prompt);
      trace("store checked");
      const startedAt = options.now();
      const progress = { role: roleName, agent: agent.alias, startedAt: startedAt.getTime(), step: stepNumber };
      options.onProgress(progress);
      const run = await runAgentWithRetries<RoutedReply>({
        config,
        spec: agent.spec,
        alias: agent.alias,
        prompt,
        schema: buildReplySchema(workflow, roleName),
        retries: config.retries,
        cwd: chain.start.cwd,
        env: { thread: threadId, role: roleName, step: stepNumber, home: options.home },
        timeoutMs: agent.timeoutMs,
        // Also aborted when the lease is lost: another stepper may hold the thread then.
        signal: lease.signal,
        onSpawn: lease.recordAgent,
        previousVisit: await findPreviousVisit(store.objects, history, roleName, forkPoint(chain, record)),
        onStderr: options.onStderr,
        onActivity: (activity) => options.onProgress({ ...progress, activity }),
        ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
        scenario: { stepIndex: history.length, routedRole: roleName, baseDir: agent.baseDir ?? chain.start.cwd },
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
          };
          const routed = await routeReply({ compiled, record, start: chain.start, history, step });
          return routed.success ? { success: true, route: { decision: routed.route, completedAt } } : routed;
        },
      });
      trace("agent done, reply checked and routed");
      options.onProgress(null);

      const batch = new NodeBatch();
      const runAddress = buildAgentRunNode({
        batch,
        alias: agent.alias,
        kind: agentKind(agent.spec),
        cwd: chain.start.cwd,
        prompt,
        run,
      });
      if (run.outcome !== "ok" || run.fields === null || run.body === null || run.route === null) {
        await batch.write(store.objects);
        await countFailedRun(store, record, run.usage, options.now());
        if (run.outcome === "interrupted")
          throw new InterruptedError(String(options.signal.reason ?? "SIGINT"), runAddress);
        throw new AgentFailedError(threadId, roleName, run.error ?? run.outcome, runAddress);
      }
      const { decision, completedAt } = run.route;
      const stepNode: ThreadStepNode = {
        type: "thread-step/1",
        start: chain.startAddress,
        prev: last === undefined ? null : (last.address as Address),
        role: roleName,
        edgePrompt,
        output: batch.add({ type: "output/1", fields: run.fields }),
        body: batch.addText(run.body),
        run: runAddress,
        startedAt: startedAt.toISOString(),
        completedAt: completedAt.toISOString(),
      };
      const stepAddress = batch.add(stepNode);
      await batch.write(store.objects);

      const newStep: HistoryStep = {
        number: stepNumber,
        address: stepAddress,
        role: roleName,
        agent: agent.alias,
        output: run.fields,
        body: run.body,
        edgePrompt,
        startedAt: stepNode.startedAt,
        completedAt: stepNode.completedAt,
        run: runAddress,
        usage: run.usage,
      };
      trace("nodes written");
      const update = {
        head: stepAddress,
        status: decision === null ? "suspended" : decision.role === END ? "ended" : "active",
        next: decision === null ? roleName : decision.role,
        reason: decision === null ? String(run.fields.reason ?? "") : null,
        stepCount: stepNumber,
        updatedAt: completedAt.toISOString(),
        usage: run.usage === null ? record.usage : addUsage(record.usage, run.usage),
      } as const;
      lease.assertHeld();
      if (!(await store.refs.updateThread(threadId, record.head, update)))
        throw new HeadConflictError(threadId, record.head, stepAddress);
      trace("head moved");
      await rememberChainIndex(store, threadId, chain, [{ address: stepAddress, role: roleName }]);
      trace("chain index kept");
      return { kind: "stepped", record: { ...record, ...update }, step: toStepSummary(newStep) };
    },
  );
}

/** What routing made of the accepted reply: where it leads (null when it suspends), and when it arrived. */
interface RoutedReply {
  decision: ModeratorDecision | null;
  completedAt: Date;
}

/**
 * chooseStepRole, except that a thread whose last reply leads nowhere (committed by an older uwf,
 * or a plain fork of such a step) fails with what to do about it instead of the moderator's error.
 */
async function chooseOrExplain(options: ChooseStepRoleOptions): Promise<StepRole> {
  const { record, history } = options;
  try {
    return await chooseStepRole(options);
  } catch (error) {
    const last = history.steps.at(-1);
    if (options.mode !== "step" || last === undefined) throw error;
    const fields = history.peek(history.length - 1).output ?? {};
    const problem = describeRoutingProblem(error, { workflow: options.compiled.workflow, fields });
    if (problem === null) throw error;
    throw new ThreadStrandedError(record.id, record.head, last.role, problem, { cause: error });
  }
}

/**
 * A run that does not become a step was still paid for: its usage goes into the thread's totals,
 * and into `failedUsage` to show it apart, so a budget sees every cent. The head stays where it was.
 */
async function countFailedRun(store: Store, record: ThreadRecord, usage: Usage | null, now: Date): Promise<void> {
  if (usage === null) return;
  const update = {
    usage: addUsage(record.usage, usage),
    failedUsage: addUsage(record.failedUsage ?? ZERO_USAGE, usage),
    updatedAt: now.toISOString(),
  };
  // Under the step's lease the head cannot have moved; if it did, the other stepper's record stands.
  await store.refs.updateThread(record.id, record.head, update);
}

/** What the prompt shows of the history: the steps from the role's last visit on, whole; the earlier ones by number and role. */
async function promptHistory(history: ThreadHistory, roleName: string): Promise<Array<HistoryStep | NamedStep>> {
  const from = firstShownStep(history.steps, roleName);
  const named = history.steps.slice(0, from).map(({ role }, index) => ({ number: index + 1, role }));
  return [...named, ...(await history.stepsFrom(from))];
}

function agentKind(spec: object): string {
  if ("builtin" in spec) return String(spec.builtin);
  if ("preset" in spec) return String(spec.preset);
  return "command";
}
