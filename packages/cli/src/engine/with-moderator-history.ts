import type { ModeratorHistory, ModeratorStep } from "@uwf/agent-kit";
import type { ThreadRecord } from "@uwf/protocol";
import type { HistoryStep } from "./load-history.ts";
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
 * touches nothing unread. That run saw the very values the whole history holds, and the moderator is
 * deterministic apart from the clock, so its result (or error) is the one the whole history gives:
 * reading less never changes a routing decision. It only means that a condition reading, say, every
 * step's body (`$string(steps)`, `steps[agent = "x"]`) reads them, and one reading none does not.
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

/** A step of the view: fields read so far are plain values, the others throw and record the step's index. */
function moderatorStep(history: ThreadHistory, index: number, touched: Set<number>): ModeratorStep {
  const { node } = history.steps[index] as ThreadHistory["steps"][number];
  const reads = history.peek(index);
  const agent = reads.run?.agent;
  if (reads.output !== undefined && reads.body !== undefined && agent !== undefined) {
    const { role, startedAt, completedAt } = node;
    return { role, output: reads.output, body: reads.body, agent, startedAt, completedAt };
  }
  const unread = {
    configurable: true,
    enumerable: true,
    get(): never {
      touched.add(index);
      throw new UnreadStepField(`step ${index + 1} is not read yet`);
    },
  };
  const field = (value: unknown) =>
    value === undefined ? unread : { configurable: true, enumerable: true, writable: true, value };
  // In ModeratorStep's field order, so that `$keys` and `$string` see what a plain object shows.
  return Object.defineProperties({} as ModeratorStep, {
    role: field(node.role),
    output: field(reads.output),
    body: field(reads.body),
    agent: field(agent),
    startedAt: field(node.startedAt),
    completedAt: field(node.completedAt),
  });
}
