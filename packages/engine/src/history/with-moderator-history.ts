import type { ThreadRecord } from "@uwf/protocol";
import type { ModeratorHistory, ModeratorStep } from "@uwf/workflow";
import type { ChainStep } from "./read-chain.ts";
import type { ThreadHistory } from "./thread-history.ts";

export interface WithModeratorHistoryOptions {
  record: Pick<ThreadRecord, "id" | "workflow">;
  start: { prompt: string; cwd: string; inputs?: Record<string, unknown> };
  history: ThreadHistory;
  /** A reply not in `history`'s chain (not written yet, or never): it comes last, as the newest step. */
  next?: ModeratorStep;
  /** A join's branch results, which its prompt and its role's conditions see as `branches`. */
  branches?: unknown;
}

/** Thrown by a step field that has not been read; only ever seen by the run it aborts. */
class UnreadStepField extends Error {}

/**
 * Runs `decide` (the moderator) on what conditions and edge prompts see of a thread (DESIGN §2):
 * the start, the thread id and every step, oldest first. Outputs, bodies, agent names and times that
 * `history` has not read yet are in the view as properties that, when touched, abort the run; the
 * touched steps are read and `decide` runs again (a second time, every step is read), until a run
 * touches nothing unread. That run saw the very values the whole history holds, and the moderator
 * is deterministic apart from the clock (and `$random()`, drawn again), so its result (or error) is
 * the one the whole history gives: reading less never changes a routing decision. It only means that
 * a condition reading, say, every step's body (`$string(steps)`, `steps[agent = "x"]`) reads them,
 * and one reading none does not.
 */
export async function withModeratorHistory<Result>(
  options: WithModeratorHistoryOptions,
  decide: (history: ModeratorHistory) => Promise<Result>,
): Promise<Result> {
  const { record, start, history, next } = options;
  const stepViews = viewOf(history);
  for (let rereads = 0; ; rereads++) {
    const touched = new Set<number>();
    stepViews.touched = touched;
    const steps = next === undefined ? [...stepViews.steps] : [...stepViews.steps, next];
    const view: ModeratorHistory = {
      start: { prompt: start.prompt, workflow: record.workflow, cwd: start.cwd, inputs: start.inputs ?? {} },
      thread: { id: record.id },
      steps,
      ...(options.branches === undefined ? {} : { branches: options.branches }),
    };
    let outcome: { decided: true; result: Result } | { decided: false; error: unknown };
    try {
      outcome = { decided: true, result: await decide(view) };
    } catch (error) {
      outcome = { decided: false, error };
    }
    if (touched.size === 0) {
      if (outcome.decided) return outcome.result;
      throw outcome.error;
    }
    if (rereads === 0) for (const index of touched) await history.step(index);
    else await history.stepsFrom(0);
  }
}

/** The steps of a history's view, and where their unread fields report being touched (the current run's set). */
interface HistoryView {
  steps: readonly ModeratorStep[];
  touched: Set<number>;
}

/** Built once per history: a step's view reads `history` live, so the moderator's runs of a command share it. */
const views = new WeakMap<ThreadHistory, HistoryView>();

function viewOf(history: ThreadHistory): HistoryView {
  let view = views.get(history);
  if (view === undefined) {
    const created: HistoryView = { steps: [], touched: new Set() };
    created.steps = history.steps.map((_, index) => moderatorStep(history, index, created));
    views.set(history, created);
    view = created;
  }
  return view;
}

/**
 * A step of the view. Its role is a value; its other fields are getters that return what `history`
 * has read of the step by the time they are called, and otherwise record the step's index and throw.
 * Own, enumerable properties in ModeratorStep's order, so `$keys` and `$string` see what they see of
 * a plain step (an object literal, because defining properties one by one costs several times more).
 */
function moderatorStep(history: ThreadHistory, index: number, view: HistoryView): ModeratorStep {
  const { role } = history.steps[index] as ChainStep;
  const { node, output, body, run, answer } = history.peek(index);
  if (
    node !== undefined &&
    output !== undefined &&
    body !== undefined &&
    run !== undefined &&
    (node.answer === undefined || answer !== undefined)
  ) {
    const step = { role, output, body, agent: run.agent, startedAt: node.startedAt, completedAt: node.completedAt };
    return answer === undefined ? step : { ...step, answer };
  }
  return {
    role,
    get output() {
      return history.peek(index).output ?? unread(view, index);
    },
    get body() {
      return history.peek(index).body ?? unread(view, index);
    },
    get agent() {
      return history.peek(index).run?.agent ?? unread(view, index);
    },
    get startedAt() {
      return history.peek(index).node?.startedAt ?? unread(view, index);
    },
    get completedAt() {
      return history.peek(index).node?.completedAt ?? unread(view, index);
    },
    // A typed suspension's answer: undefined on a step that answered none (known once its node is read).
    get answer() {
      const read = history.peek(index);
      if (read.node === undefined) return unread(view, index);
      if (read.node.answer === undefined) return undefined;
      return read.answer ?? unread(view, index);
    },
  };
}

function unread(view: HistoryView, index: number): never {
  view.touched.add(index);
  throw new UnreadStepField(`step ${index + 1} is not read yet`);
}
