import {
  buildContinuationPrompt,
  buildReplySchema,
  compileWorkflow,
  firstShownStep,
  type NamedStep,
  resolveAgent,
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
  UwfError,
  type WorkflowNode,
} from "@uwf/protocol";
import { AgentFailedError } from "../errors/agent-failed-error.ts";
import { HeadConflictError } from "../errors/head-conflict-error.ts";
import { InterruptedError } from "../errors/interrupted-error.ts";
import { trace } from "../trace.ts";
import { buildAgentRunNode } from "./build-agent-run-node.ts";
import { checkSteppable } from "./check-steppable.ts";
import { chooseStepRole } from "./choose-step-role.ts";
import { findPreviousVisit, forkPoint } from "./find-previous-visit.ts";
import type { HistoryStep } from "./load-history.ts";
import { toStepSummary } from "./load-step-summaries.ts";
import { NodeBatch } from "./node-batch.ts";
import { predictNextRole } from "./predict-next-role.ts";
import { readChain } from "./read-chain.ts";
import { rememberChainIndex } from "./remember-chain-index.ts";
import { runAgentWithRetries } from "./run-agent-with-retries.ts";
import { storedNodeAs } from "./stored-node.ts";
import { ThreadHistory } from "./thread-history.ts";
import { withModeratorHistory } from "./with-moderator-history.ts";
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
  onProgress(status: { role: string; agent: string; startedAt: number; step: number } | null): void;
  onStderr(chunk: string): void;
}

export type StepThreadOutcome =
  | { kind: "stepped"; record: ThreadRecord; step: StepSummary }
  | { kind: "ended"; record: ThreadRecord };

/**
 * How long a step's lease lives without renewal. The stepper renews it every quarter of this while
 * the agent runs, so a step of any length keeps it, and a stepper killed with SIGKILL blocks the
 * thread for at most this long. (The head's compare-and-swap keeps the thread correct even if a
 * lease were lost; the lease is what makes a second stepper fail at once instead of after its run.)
 */
export const STEP_LEASE_TTL_MS = 60_000;

/** DESIGN §4's step algorithm: lease → moderator → agent → validate → write → compare-and-swap the head. */
export async function stepThread(options: StepThreadOptions): Promise<StepThreadOutcome> {
  const { store, config, threadId } = options;
  return withThreadLease(
    { refs: store.refs, threadId, ttlMs: STEP_LEASE_TTL_MS, host: options.host, now: options.now },
    async () => {
      trace("lease taken");
      const record = await store.refs.getThread(threadId);
      if (record === null)
        throw new UwfError("thread-not-found", `no thread "${threadId}"`, { data: { thread: threadId } });
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
      const chosen = await chooseStepRole({
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
      if (role === undefined)
        throw new UwfError("unknown-role", `workflow ${workflow.name} has no role "${roleName}"`, {
          data: { role: roleName },
        });
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
        history: await promptHistory(history, roleName),
        edgePrompt,
      });
      trace("prompt built");
      const startedAt = options.now();
      options.onProgress({ role: roleName, agent: agent.alias, startedAt: startedAt.getTime(), step: stepNumber });
      const run = await runAgentWithRetries({
        config,
        spec: agent.spec,
        alias: agent.alias,
        prompt,
        schema: buildReplySchema(workflow, roleName),
        retries: config.retries,
        cwd: chain.start.cwd,
        env: { thread: threadId, role: roleName, step: stepNumber, home: options.home },
        timeoutMs: agent.timeoutMs,
        signal: options.signal,
        previousVisit: await findPreviousVisit(store.objects, history, roleName, forkPoint(chain, record)),
        onStderr: options.onStderr,
        scenario: { stepIndex: history.length, routedRole: roleName, baseDir: agent.baseDir ?? chain.start.cwd },
      });
      trace("agent done, reply checked");
      options.onProgress(null);
      const completedAt = options.now();

      const batch = new NodeBatch();
      const runAddress = buildAgentRunNode({
        batch,
        alias: agent.alias,
        kind: agentKind(agent.spec),
        cwd: chain.start.cwd,
        prompt,
        run,
      });
      if (run.outcome !== "ok" || run.fields === null || run.body === null) {
        await batch.write(store.objects);
        if (run.outcome === "interrupted")
          throw new InterruptedError(String(options.signal.reason ?? "SIGINT"), runAddress);
        throw new AgentFailedError(threadId, roleName, run.error ?? run.outcome, runAddress);
      }
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
      const suspended = run.fields.$status === SUSPEND;
      const next = suspended
        ? roleName
        : await withModeratorHistory({ record, start: chain.start, history, next: newStep }, (view) =>
            predictNextRole(compiled, view),
          );
      const update = {
        head: stepAddress,
        status: suspended ? "suspended" : "active",
        next,
        reason: suspended ? String(run.fields.reason ?? "") : null,
        stepCount: stepNumber,
        updatedAt: completedAt.toISOString(),
        usage: run.usage === null ? record.usage : addUsage(record.usage, run.usage),
      } as const;
      trace("next role predicted");
      if (!(await store.refs.updateThread(threadId, record.head, update)))
        throw new HeadConflictError(threadId, record.head, stepAddress);
      trace("head moved");
      await rememberChainIndex(store, threadId, chain, [{ address: stepAddress, role: roleName }]);
      trace("chain index kept");
      return { kind: "stepped", record: { ...record, ...update }, step: toStepSummary(newStep) };
    },
  );
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
