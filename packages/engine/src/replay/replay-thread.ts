import { safeExtractFrontmatter } from "@uwf/agent-kit";
import type { Store } from "@uwf/cas";
import {
  type AgentRunNode,
  END,
  type ReplayDivergence,
  type ReplayedThread,
  START,
  SUSPEND,
  type ThreadRecord,
  type WorkflowNode,
} from "@uwf/protocol";
import {
  buildReplySchema,
  type CompiledWorkflow,
  compileWorkflow,
  EdgePromptError,
  formatFrontmatter,
  InvalidInputsError,
  type ModeratorHistory,
  type ModeratorMode,
  type ModeratorStep,
  renderJoinPrompt,
  validateStartInputs,
} from "@uwf/workflow";
import { checkAnswer } from "../answers/check-answer.ts";
import { isRoleBranch, ownBranchSteps } from "../branches/branch-steps.ts";
import { readFanOut } from "../branches/read-fan-out.ts";
import { InvalidAnswerError } from "../errors/invalid-answer-error.ts";
import type { HistoryStep } from "../history/history-step.ts";
import { readChain, type ThreadChain } from "../history/read-chain.ts";
import { storedNodeAs } from "../history/stored-node.ts";
import { ThreadHistory } from "../history/thread-history.ts";
import { describeRoutingProblem } from "../routing/route-reply.ts";
import { loadStoredReplayWorkflow, type ReplayWorkflow } from "./load-replay-workflow.ts";
import { readJoinedBranches } from "./read-joined-branches.ts";
import { describeRoutingFailure, describeTarget, fieldOf, type Routed, routeThrough } from "./replay-route.ts";

/** What the replay of one step found: nothing (go on), a divergence, or a point past which it cannot go. */
type StepFinding =
  | { kind: "next" }
  | { kind: "diverged"; divergence: ReplayDivergence }
  | { kind: "stop"; reason: string; fromStep: number };

/**
 * Re-routes a thread's recorded replies through another workflow, running no agent and writing no node:
 * step by step, the recorded role must exist in the new workflow, its recorded reply (fields and body,
 * as the step accepted them) must pass the new role's schema exactly as a step checks an agent's reply,
 * a recorded typed answer the new role's `answer:`, and the new moderator, run on the replayed history
 * (the fields as the new schema keeps them), must pick the role that came next — or, after the last
 * step, lead where the thread stands (`$END` for an ended thread, its next role otherwise), rendering
 * each edge prompt as a step would. The first step that does not is the divergence. A fan-out must fan
 * out again to the same branches and join role; the join's prompt and its reply's route see the branches'
 * recorded results. Then each branch thread's own steps are replayed too: a `role:` branch's replies
 * (and answers) must pass the new role's schema, a `workflow:` branch is replayed through the workflow
 * of that name as the store now registers it (nested fan-outs alike); the first divergence in a branch
 * is the thread's, its reason naming the branch.
 */
export async function replayThread(
  store: Store,
  record: ThreadRecord,
  target: ReplayWorkflow,
): Promise<ReplayedThread> {
  return replayChain(store, record, target, false);
}

/** `asBranch`: the thread is replayed as a branch its parent's replay reached (a thread named alone is not). */
async function replayChain(
  store: Store,
  record: ThreadRecord,
  target: ReplayWorkflow,
  asBranch: boolean,
): Promise<ReplayedThread> {
  const base = {
    thread: record.id,
    workflow: record.workflow,
    workflowAddress: record.workflowAddress,
    status: record.status,
    steps: record.stepCount,
  };
  if (record.branchOf !== undefined && !asBranch) {
    const reason = `a branch of thread ${record.branchOf.thread}: it is replayed with its parent (replay thread ${record.branchOf.thread})`;
    const notReplayed = { fromStep: 1, reason };
    return { ...base, replayed: 0, branches: 0, result: "identical", divergence: null, notReplayed };
  }
  const chain = await readChain(store, record.head, { thread: record });
  const history = new ThreadHistory(store.objects, chain);
  const steps = await history.stepsFrom(0);
  const replay = new StepReplay({ store, record, chain, history, steps }, target);
  // A `role:` branch's chain goes through its parent's steps up to the fan-out: only its own are replayed.
  const outcome = isRoleBranch(record) ? await replay.runRoleBranch(ownFrom(record)) : await replay.run();
  const found = { ...base, steps: steps.length, replayed: outcome.replayed, branches: replay.branchesReplayed };
  if (outcome.finding.kind === "diverged") {
    return { ...found, result: "diverged", divergence: outcome.finding.divergence, notReplayed: null };
  }
  const notReplayed =
    outcome.finding.kind === "stop" ? { fromStep: outcome.finding.fromStep, reason: outcome.finding.reason } : null;
  return { ...found, result: "identical", divergence: null, notReplayed };
}

/** A thread as its replay reads it: the record, the chain and every step, whole. */
interface ReplayedChain {
  store: Store;
  record: ThreadRecord;
  chain: ThreadChain;
  history: ThreadHistory;
  steps: readonly HistoryStep[];
}

class StepReplay {
  /** The replayed steps so far: each recorded step with its fields as the new schema keeps them. */
  private readonly replayed: ModeratorStep[] = [];
  private recordedWorkflow: CompiledWorkflow | null = null;
  /** The branches each join step joined, by the join step's index: its reply's conditions read them. */
  private readonly joinBranches = new Map<number, unknown>();
  /** The start inputs as the new workflow takes them (set by `run` before any route). */
  private inputs: Record<string, unknown> = {};
  /** Branch threads joined on this thread's chain, each replayed (and theirs, counted too). */
  branchesReplayed = 0;

  private readonly store: Store;
  private readonly record: ThreadRecord;
  private readonly chain: ThreadChain;
  private readonly history: ThreadHistory;
  private readonly steps: readonly HistoryStep[];
  private readonly target: ReplayWorkflow;

  constructor(thread: ReplayedChain, target: ReplayWorkflow) {
    this.store = thread.store;
    this.record = thread.record;
    this.chain = thread.chain;
    this.history = thread.history;
    this.steps = thread.steps;
    this.target = target;
  }

  async run(): Promise<{ replayed: number; finding: StepFinding }> {
    const first = this.steps[0];
    const missingFirst = first === undefined ? null : this.missingRole(first);
    if (missingFirst !== null) return { replayed: 0, finding: missingFirst };
    const start = { step: 0, address: this.chain.startAddress, role: START };
    // The start inputs as the new workflow would take them (its defaults filled in): conditions and prompts read them.
    try {
      this.inputs = validateStartInputs(this.target.workflow, this.chain.start.inputs ?? {});
    } catch (error) {
      if (!(error instanceof InvalidInputsError)) throw error;
      const reason = String(error.data.problem);
      const field = /input "([^"]*)"/.exec(reason)?.[1] ?? null;
      return {
        replayed: 0,
        finding: diverged({ ...start, kind: "inputs-refused", field, expected: null, actual: null, reason }),
      };
    }
    const opening = await this.route("new", this.replayed);
    const expectedFirst = first?.role ?? this.standing();
    if (expectedFirst !== null) {
      const finding = this.compare(opening, expectedFirst, start);
      if (finding !== null) return { replayed: 0, finding };
    }
    for (let index = 0; index < this.steps.length; index++) {
      const finding = await this.replayStep(index);
      if (finding.kind === "stop") return { replayed: index + 1, finding };
      if (finding.kind === "diverged") return { replayed: Math.max(finding.divergence.step - 1, 0), finding };
    }
    return { replayed: this.steps.length, finding: { kind: "next" } };
  }

  /** Step `index`: its role, its reply, its answer, then where its reply leads. */
  private async replayStep(index: number): Promise<StepFinding> {
    const step = this.steps[index] as HistoryStep;
    const at = { step: step.number, address: step.address, role: step.role };
    const missing = this.missingRole(step);
    if (missing !== null) return missing;
    const node = await this.history.node(index);
    let fields = step.output;
    // A timed-out suspension's step is uwf's own record (`$status: $timeout`), not a reply to check.
    if (node.timedOut === undefined) {
      const reply = formatFrontmatter(step.output, step.body);
      const checked = safeExtractFrontmatter(reply, buildReplySchema(this.target.workflow, step.role));
      if (!checked.success) {
        const reason = checked.error.problem;
        return diverged({ ...at, kind: "reply-refused", field: fieldOf(reason), expected: null, actual: null, reason });
      }
      fields = checked.value.fields;
    }
    const suspension = node.timedOut === undefined ? await this.answeredSuspension(index) : null;
    if (suspension !== null) {
      const refused = this.checkAnswer(step, index, suspension.agentTimedOut);
      if (refused !== null) return diverged({ ...at, ...refused });
    }
    this.replayed.push({
      role: step.role,
      output: fields,
      body: step.body,
      agent: step.agent,
      startedAt: step.startedAt,
      completedAt: step.completedAt,
      ...(step.answer === undefined ? {} : { answer: step.answer }),
    });
    // A suspending reply leads nowhere yet: the next step (its answer, or its timeout) is the same role again.
    if (fields.$status === SUSPEND) return { kind: "next" };
    const next = this.steps[index + 1];
    // A role the new graph no longer has is reported as such, not as the route that can no longer reach it.
    const nextMissing = next === undefined ? null : this.missingRole(next);
    if (nextMissing !== null) return nextMissing;
    if (node.fanOut !== undefined) return this.replayFanOut(step, index, at);
    const routed = await this.route("continue", this.replayed, this.joinBranches.get(index));
    if ("decision" in routed && routed.decision.fanOut !== undefined) {
      const join = routed.decision.role;
      const reason = `role ${step.role}'s reply now fans out to branches joined by role ${join}; the thread did not fan out`;
      const expected = next?.role ?? this.standing();
      return diverged({ ...at, kind: "route-changed", field: null, expected, actual: join, reason });
    }
    if (next === undefined) {
      const standing = this.standing();
      return standing === null ? { kind: "next" } : orNext(this.compare(routed, standing, at));
    }
    if ("decision" in routed && routed.decision.role === next.role) return { kind: "next" };
    // The thread ended here and was resumed (`uwf resume` on an ended thread): it went on through `$START`'s resume edge.
    if ((await this.recordedRoute(index)) === END) {
      const ended = this.compare(routed, END, at);
      if (ended !== null) return ended;
      return orNext(this.compare(await this.route("resume", this.replayed), next.role, at));
    }
    return orNext(this.compare(routed, next.role, at));
  }

  /** A fan-out step: the new graph must fan out to the same join role; its branches and join are not replayed. */
  private async replayFanOut(step: HistoryStep, index: number, at: At): Promise<StepFinding> {
    const plan = await readFanOut(this.store.objects, step.address);
    const joinRole = plan?.join.role ?? "(join)";
    const routed = await this.route("continue", this.replayed);
    const compared = this.compare(routed, joinRole, at);
    if (compared !== null) return compared;
    if ("decision" in routed && routed.decision.fanOut === undefined) {
      const reason = `the reply now goes to role ${joinRole} directly; it fanned out to branches joined by ${joinRole}`;
      return diverged({ ...at, kind: "route-changed", field: null, expected: joinRole, actual: joinRole, reason });
    }
    // The same join over other branches is another fan-out: the join would see other results.
    const planned = "decision" in routed ? (routed.decision.fanOut?.branches.map(describeBranch) ?? []) : [];
    const recordedKeys = plan?.branches.map(describeBranch) ?? [];
    if (planned.join("\n") !== recordedKeys.join("\n")) {
      const reason = `the reply now fans out to branches ${planned.join(", ") || "(none)"}; it fanned out to ${recordedKeys.join(", ") || "(none)"}`;
      return diverged({ ...at, kind: "route-changed", field: null, expected: joinRole, actual: joinRole, reason });
    }
    const join = this.steps[index + 1];
    const joined = join === undefined ? undefined : (await this.history.node(index + 1)).joined;
    // The thread still waits for its branches (or its join was never recorded): nothing more to follow.
    if (join === undefined) return { kind: "next" };
    if (joined === undefined || !("decision" in routed) || routed.decision.fanOut === undefined) {
      return {
        kind: "stop",
        fromStep: index + 2,
        reason: `step ${step.number} fans out and no join is recorded after it: the steps from ${index + 2} are not replayed`,
      };
    }
    // The join sees its branches as recorded: their results are the join step's `branches/1` node.
    const branches = await readJoinedBranches(this.store, joined, plan?.kind ?? "parallel");
    for (const branch of branches.threads) {
      const finding = await this.replayBranch(branch);
      if (finding.kind !== "next") return finding;
    }
    this.joinBranches.set(index + 1, branches.value);
    try {
      await renderJoinPrompt({
        compiled: this.target.compiled,
        from: step.role,
        edge: routed.decision.fanOut.edge,
        history: this.view(this.replayed),
        branches: branches.value,
      });
    } catch (error) {
      if (!(error instanceof EdgePromptError)) throw error;
      // A join prompt that renders empty is allowed: the join role reads the branches' results after it.
      if (!String(error.data.reason ?? "").startsWith("rendered empty")) {
        const fields = this.replayed.at(-1)?.output ?? {};
        const reason = describeRoutingProblem(error, { workflow: this.target.workflow, fields }) ?? error.message;
        const field = fieldOf(reason);
        return diverged({ ...at, kind: "prompt-failed", field, expected: joinRole, actual: joinRole, reason });
      }
    }
    return { kind: "next" };
  }

  /**
   * A `role:` branch: its own steps from index `from` (the ones after its parent's fan-out step), each
   * reply and answer checked against the new role as a step checks them. Its reply ends it: no route.
   */
  async runRoleBranch(from: number): Promise<{ replayed: number; finding: StepFinding }> {
    for (let index = from; index < this.steps.length; index++) {
      const step = this.steps[index] as HistoryStep;
      const missing = this.missingRole(step);
      if (missing !== null) return { replayed: index - from, finding: missing };
      const node = await this.history.node(index);
      if (node.timedOut === undefined) {
        const checked = safeExtractFrontmatter(
          formatFrontmatter(step.output, step.body),
          buildReplySchema(this.target.workflow, step.role),
        );
        if (!checked.success) {
          const reason = checked.error.problem;
          const at = { step: step.number, address: step.address, role: step.role };
          const finding = diverged({
            ...at,
            kind: "reply-refused",
            field: fieldOf(reason),
            expected: null,
            actual: null,
            reason,
          });
          return { replayed: index - from, finding };
        }
        const suspension = index > from ? await this.answeredSuspension(index) : null;
        if (suspension !== null) {
          const refused = this.checkAnswer(step, index, suspension.agentTimedOut);
          if (refused !== null) {
            const at = { step: step.number, address: step.address, role: step.role };
            return { replayed: index - from, finding: diverged({ ...at, ...refused }) };
          }
        }
      }
    }
    return { replayed: this.steps.length - from, finding: { kind: "next" } };
  }

  /**
   * One joined branch's own steps, replayed: a `role:` branch against the new workflow's role, a
   * `workflow:` branch through the workflow of its name as the store registers it now. Its divergence
   * (reason naming the branch) is this thread's.
   */
  private async replayBranch(branch: { key: string; thread: string }): Promise<StepFinding> {
    const record = await this.store.refs.getThread(branch.thread);
    if (record === null) return { kind: "next" };
    let target = this.target;
    if (!isRoleBranch(record)) {
      const entry = await this.store.refs.getWorkflow(record.workflow);
      if (entry === null) return { kind: "next" };
      target = await loadStoredReplayWorkflow(this.store, entry.address);
    }
    const replayed = await replayChain(this.store, record, target, true);
    this.branchesReplayed += 1 + replayed.branches;
    if (replayed.divergence === null) return { kind: "next" };
    const { divergence } = replayed;
    const reason = `in branch ${branch.key} (thread ${record.id}): ${divergence.reason}`;
    return diverged({ ...divergence, reason });
  }

  /** A `role-missing` divergence at the step when the new workflow has no role of its name; null when it has. */
  private missingRole(step: HistoryStep): StepFinding | null {
    if (Object.hasOwn(this.target.workflow.roles, step.role)) return null;
    const reason = `role ${step.role} is not in workflow ${this.target.name}`;
    const at = { step: step.number, address: step.address, role: step.role };
    return diverged({ ...at, kind: "role-missing", field: null, expected: step.role, actual: null, reason });
  }

  /**
   * When step `index` answered its role's suspension (the step before it is the same role's `$SUSPEND`
   * reply): whether that suspension was the agent running out of time, which takes text whatever the
   * role's `answer:` says. Null for any other step.
   */
  private async answeredSuspension(index: number): Promise<{ agentTimedOut: boolean } | null> {
    const step = this.steps[index] as HistoryStep;
    const previous = this.steps[index - 1];
    if (previous === undefined || previous.role !== step.role || previous.output.$status !== SUSPEND) return null;
    const run = storedNodeAs<AgentRunNode>("agent-run/1", previous.run, await this.store.objects.get(previous.run));
    return { agentTimedOut: run.outcome === "timeout" };
  }

  /**
   * The answer step `index` recorded (typed, or text given with `-p`) checked against the new role's
   * `answer:` schema, as `resume` checks it.
   */
  private checkAnswer(
    step: HistoryStep,
    index: number,
    agentTimedOut: boolean,
  ): Omit<ReplayDivergence, "step" | "address" | "role"> | null {
    const previous = this.steps[index - 1];
    try {
      checkAnswer(
        this.record.id,
        {
          role: step.role,
          definition: this.target.workflow.roles[step.role],
          reason: previous === undefined ? null : String(previous.output.reason ?? ""),
          ask: {},
          suspendedAt: previous?.completedAt ?? step.startedAt,
          agentTimedOut,
        },
        // The text of a `-p` answer is in the step's prompt; only its being text matters here.
        step.answer === undefined ? { text: "" } : { typed: step.answer },
      );
      return null;
    } catch (error) {
      if (!(error instanceof InvalidAnswerError)) throw error;
      const { field, problem } = error.data as { field: string | null; problem: string };
      // What `resume` would tell the person to type instead means nothing for an answer already recorded.
      const reason = problem
        .replace(/: give it with -p TEXT$/, "; the recorded answer is typed")
        .replace(/^-p gives text, but (.*), so give --answer with (.*)$/, "$1 with $2; the recorded answer is text");
      return { kind: "answer-refused", field, expected: null, actual: null, reason };
    }
  }

  /** Where the thread stands after its last step: `$END` once ended, else the next role its record names. */
  private standing(): string | null {
    if (this.record.status === "ended") return END;
    return this.record.next;
  }

  /** The new moderator's pick from the replayed history; routing errors are kept as the result. */
  private async route(mode: ModeratorMode, steps: readonly ModeratorStep[], branches?: unknown): Promise<Routed> {
    const view = this.view(steps);
    return routeThrough(this.target.compiled, branches === undefined ? view : { ...view, branches }, mode);
  }

  /** Where step `index`'s reply led under the thread's own workflow: read only when the new route differs. */
  private async recordedRoute(index: number): Promise<string | null> {
    this.recordedWorkflow ??= compileWorkflow(
      storedNodeAs<WorkflowNode>(
        "workflow/1",
        this.record.workflowAddress,
        await this.store.objects.get(this.record.workflowAddress),
      ),
    );
    const recorded = this.steps.slice(0, index + 1).map(toModeratorStep);
    const routed = await routeThrough(
      this.recordedWorkflow,
      this.view(recorded, this.chain.start.inputs ?? {}),
      "continue",
    );
    return "decision" in routed ? routed.decision.role : null;
  }

  private view(steps: readonly ModeratorStep[], inputs = this.inputs): ModeratorHistory {
    const { start } = this.chain;
    return {
      start: { prompt: start.prompt, workflow: this.record.workflow, cwd: start.cwd, inputs },
      thread: { id: this.record.id },
      steps,
    };
  }

  /** A divergence when the route is not `expected` (or failed), null when it is. */
  private compare(routed: Routed, expected: string, at: At): StepFinding | null {
    if ("error" in routed) {
      const fields = this.replayed.at(-1)?.output ?? {};
      const reason = describeRoutingProblem(routed.error, { workflow: this.target.workflow, fields });
      return diverged({ ...at, ...describeRoutingFailure(routed.error, expected, reason) });
    }
    const actual = routed.decision.role;
    if (actual === expected) return null;
    const from = at.role === START ? "$START" : `role ${at.role}'s reply`;
    const reason = `${from} now leads to ${describeTarget(actual)}; the thread went to ${describeTarget(expected)}`;
    return diverged({ ...at, kind: "route-changed", field: null, expected, actual, reason });
  }
}

type At = Pick<ReplayDivergence, "step" | "address" | "role">;

/** The index of a `role:` branch's first own step in its chain. */
function ownFrom(record: ThreadRecord): number {
  return record.stepCount - ownBranchSteps(record);
}

function toModeratorStep(step: HistoryStep): ModeratorStep {
  const { role, output, body, agent, startedAt, completedAt, answer } = step;
  return { role, output, body, agent, startedAt, completedAt, ...(answer === undefined ? {} : { answer }) };
}

function diverged(divergence: ReplayDivergence): StepFinding {
  return { kind: "diverged", divergence };
}

function orNext(finding: StepFinding | null): StepFinding {
  return finding ?? { kind: "next" };
}

/** A planned branch as a fan-out's comparison sees it: its key and what it runs (its prompt may change freely). */
function describeBranch(branch: { key: string; role: string | null; workflow: string | null }): string {
  return `${branch.key} (${branch.role === null ? `workflow ${branch.workflow}` : `role ${branch.role}`})`;
}
