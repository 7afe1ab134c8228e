import { resolve } from "node:path";
import { addressOfNode, type Store } from "@uwf/cas";
import { resolveWorkflow, startThread, stepUntilDone } from "@uwf/engine";
import {
  type Address,
  type BudgetLimits,
  type Config,
  type EvalScore,
  type EvalThreadView,
  evalScorerReplySchema,
  messageOf,
  type ThreadRecord,
  type ThreadStartNode,
  type WorkflowNode,
} from "@uwf/protocol";
import { validateStartInputs } from "@uwf/workflow";
import { loadThreadViews } from "../view/load-thread-view.ts";
import { type AssertionResult, errored, passedOrFailed } from "./assertion-result.ts";
import { renderJudgeTranscript } from "./render-judge-transcript.ts";

/** What the judge is asked when its assertion says nothing (`prompt:`), put before the transcript. */
export const DEFAULT_JUDGE_PROMPT =
  "Judge whether the thread below did what its task asked. Reply with `pass` (true or false), `score` " +
  "(a number from 0 to 1, optional) and `reason` (a sentence, optional) in your frontmatter.";

/**
 * What running judging threads needs: the engine's context, given once. Judging threads start in
 * `cwd` (which is part of their start node, so give the same one to find earlier verdicts again).
 */
export interface JudgeContext {
  store: Store;
  config: Config;
  home: string;
  /** Where judging threads run, and what a relative judge workflow path is resolved against. */
  cwd: string;
  now(): Date;
  newId(): string;
  signal: AbortSignal;
  /** This machine's name, for the judging threads' step leases. */
  host: string;
  /** The agent of a judge that names none and whose workflow's role names none (as `--agent`). */
  defaultAgent?: string;
  /** Limits for each judging thread (over its workflow's and the config's). */
  limits?: Partial<BudgetLimits>;
  /** Seconds before a judge's agent is stopped, over its own timeout. */
  timeoutSeconds?: number;
  /** Told of each judging thread once it is started, or found already judged (`reused`). */
  onJudgeThread?(event: { assertion: string; thread: string; judged: string; reused: boolean }): void;
  /** The judging agents' stderr (for `-v`). */
  onStderr?(chunk: string): void;
}

/** A judge assertion's workflow, resolved once for every thread it judges. */
export interface PreparedJudge {
  name: string;
  workflowAddress: Address;
  workflow: WorkflowNode;
  role: string | undefined;
  agent: string | undefined;
  prompt: string;
}

export interface JudgeAssertionFields {
  name: string;
  workflow: string;
  role?: string;
  agent?: string;
  prompt?: string;
}

/** Resolves (and for a file, registers) the judge's workflow: throws WorkflowNotFoundError and the like. */
export async function prepareJudge(assertion: JudgeAssertionFields, context: JudgeContext): Promise<PreparedJudge> {
  const { address, workflow } = await resolveWorkflow({
    store: context.store,
    reference: assertion.workflow,
    cwd: context.cwd,
    home: context.home,
    now: context.now,
  });
  return {
    name: assertion.name,
    workflowAddress: address,
    workflow,
    role: assertion.role,
    agent: assertion.agent,
    prompt: assertion.prompt ?? DEFAULT_JUDGE_PROMPT,
  };
}

/**
 * Judges one thread: an ordinary thread of the judge's workflow, started with the prompt and the
 * thread's transcript and the inputs `{ thread, head }` (and `agent`, when the assertion names one),
 * run to its end; its verdict is the last reply
 * of the judge's role (default: the role whose reply ended it): `pass` (a boolean, required), `score`
 * and `reason`. The start node is deterministic, so a thread already judged (an ended judging thread of
 * that start node) is read again instead of run: re-running or rescoring costs nothing. A judging
 * thread that fails, suspends or replies without a boolean `pass` errs, naming the thread.
 */
export async function scoreJudge(
  view: EvalThreadView,
  judge: PreparedJudge,
  context: JudgeContext,
): Promise<AssertionResult> {
  const prompt = `${judge.prompt.trim()}\n\n${renderJudgeTranscript(view)}`;
  const threadCwd = resolve(context.cwd);
  let inputs: Record<string, unknown>;
  try {
    // The agent a judge names is part of its start, so judges by two agents are two threads, each reused.
    const given = {
      thread: view.thread,
      head: view.head,
      ...(judge.agent === undefined ? {} : { agent: judge.agent }),
    };
    inputs = validateStartInputs(judge.workflow, given);
  } catch (error) {
    return errored(
      `the judge's workflow ${judge.workflow.name} refuses the inputs { thread, head }: ${messageOf(error)}`,
    );
  }
  const startNode: ThreadStartNode = {
    type: "thread-start/1",
    workflow: judge.workflowAddress,
    prompt,
    cwd: threadCwd,
    ...(Object.keys(inputs).length > 0 ? { inputs } : {}),
  };
  const earlier = await findJudged(context.store, addressOfNode(startNode));
  if (earlier !== null) {
    context.onJudgeThread?.({ assertion: judge.name, thread: earlier.id, judged: view.thread, reused: true });
    return readVerdict(context.store, earlier, judge);
  }

  let record: ThreadRecord;
  try {
    record = await startThread({
      store: context.store,
      config: context.config,
      workflowReference: judge.workflowAddress,
      prompt,
      inputs,
      threadCwd,
      cwd: context.cwd,
      home: context.home,
      now: context.now,
      newId: context.newId,
      ...(context.limits === undefined ? {} : { limits: context.limits }),
    });
  } catch (error) {
    return errored(`the judging thread could not be started: ${messageOf(error)}`);
  }
  context.onJudgeThread?.({ assertion: judge.name, thread: record.id, judged: view.thread, reused: false });
  const agent = judge.agent ?? context.defaultAgent;
  const done = await stepUntilDone({
    store: context.store,
    config: context.config,
    home: context.home,
    threadId: record.id,
    maxSteps: Number.POSITIVE_INFINITY,
    signal: context.signal,
    host: context.host,
    now: context.now,
    onProgress: () => {},
    onStderr: (chunk) => context.onStderr?.(chunk),
    ...(agent === undefined ? {} : { defaultAgent: agent }),
    ...(context.timeoutSeconds === undefined ? {} : { timeoutSeconds: context.timeoutSeconds }),
  });
  const judgeLink = { thread: done.record.id, head: done.record.head };
  if (done.record.status !== "ended") {
    const why = done.error === undefined ? done.record.status : `${done.record.status}: ${messageOf(done.error)}`;
    return errored(`the judging thread ${done.record.id} did not end (${why})`, judgeLink);
  }
  return readVerdict(context.store, done.record, judge);
}

/** The newest ended judging thread of this start node; null when there is none. */
async function findJudged(store: Store, start: Address): Promise<ThreadRecord | null> {
  const { threads } = await store.refs.listThreads({ start, status: "ended" });
  return threads.find((thread) => thread.forkedFrom === null) ?? threads[0] ?? null;
}

/** The verdict an ended judging thread gave: the last reply of the judge's role. */
async function readVerdict(store: Store, record: ThreadRecord, judge: PreparedJudge): Promise<AssertionResult> {
  const judgeLink: NonNullable<EvalScore["judge"]> = { thread: record.id, head: record.head };
  const [view] = await loadThreadViews(store, [record], { bodies: false });
  const role = judge.role ?? view?.outcome?.role ?? view?.steps.at(-1)?.role;
  const step = view?.steps.findLast((candidate) => candidate.role === role);
  if (step === undefined) return errored(`the judging thread ${record.id} has no reply of the role ${role}`, judgeLink);
  const reply = evalScorerReplySchema.safeParse(step.output);
  if (!reply.success) {
    const issue = reply.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? "its reply" : issue.path.join(".");
    return errored(
      `the judging thread ${record.id}: ${role}'s reply (step ${step.number}) has no boolean pass, score in [0, 1] and string reason (${field}: ${issue?.message ?? "invalid"})`,
      judgeLink,
    );
  }
  const { pass, score, reason } = reply.data;
  return { ...passedOrFailed(pass, score ?? null, reason ?? null), judge: judgeLink };
}
