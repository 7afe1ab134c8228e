import type { ModeratorHistory, ModeratorStep } from "@uwf/agent-kit";
import type { ThreadRecord } from "@uwf/protocol";
import type { HistoryStep } from "./load-history.ts";
import type { ChainStep } from "./read-chain.ts";
import type { ThreadHistory } from "./thread-history.ts";

export interface WithModeratorHistoryOptions {
  record: Pick<ThreadRecord, "id" | "workflow">;
  start: { prompt: string; cwd: string };
  history: ThreadHistory;
  /** A step just taken, not in `history`'s chain yet: it comes last. */
  next?: HistoryStep;
}

/** Thrown by a step field that has not been read; only ever seen by the run it aborts. */
class UnreadStepField extends Error {}

/**
 * Runs `decide` (the moderator) on what conditions and edge prompts see of a thread (DESIGN §2):
 * the start, the thread id and every step, oldest first. Outputs, bodies and agent names that
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
  for (let rereads = 0; ; rereads++) {
    const touched = new Set<number>();
    const steps = history.steps.map((_, index) => moderatorStep(history, index, touched));
    if (next !== undefined) steps.push(toModeratorStep(next));
    const view: ModeratorHistory = {
      start: { prompt: start.prompt, workflow: record.workflow, cwd: start.cwd },
      thread: { id: record.id },
      steps,
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

function toModeratorStep(step: HistoryStep): ModeratorStep {
  const { role, output, body, agent, startedAt, completedAt } = step;
  return { role, output, body, agent, startedAt, completedAt };
}

/**
 * A step of the view. Its output, body and agent are getters that return what `history` has read
 * of the step by the time they are called, and otherwise record the step's index and throw. Own,
 * enumerable properties in ModeratorStep's order, so `$keys` and `$string` see what they see of a
 * plain step (an object literal, because defining properties one by one costs several times more).
 */
function moderatorStep(history: ThreadHistory, index: number, touched: Set<number>): ModeratorStep {
  const { role, startedAt, completedAt } = (history.steps[index] as ChainStep).node;
  const reads = history.peek(index);
  if (reads.output !== undefined && reads.body !== undefined && reads.run !== undefined) {
    return { role, output: reads.output, body: reads.body, agent: reads.run.agent, startedAt, completedAt };
  }
  const unread = (): never => {
    touched.add(index);
    throw new UnreadStepField(`step ${index + 1} is not read yet`);
  };
  return {
    role,
    get output() {
      return reads.output ?? unread();
    },
    get body() {
      return reads.body ?? unread();
    },
    get agent() {
      return reads.run?.agent ?? unread();
    },
    startedAt,
    completedAt,
  };
}
