import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { JudgeContext } from "../score/score-judge.ts";
import type { EvaluateOptions } from "./evaluate-options.ts";

/**
 * Where judging threads run: one folder of the home for all of them, so a judge's start node (its
 * workflow, prompt, folder and inputs) is the same each time it judges the same head, and an
 * ended judging thread is found and reused instead of run again.
 */
export function judgeContextOf(options: EvaluateOptions): JudgeContext & { noteReused(): void } {
  const cwd = join(options.home, "eval", "judges");
  mkdirSync(cwd, { recursive: true });
  let reused = 0;
  return {
    store: options.store,
    config: options.config,
    home: options.home,
    cwd,
    now: options.now,
    newId: options.newId,
    signal: options.signal,
    host: options.host,
    defaultAgent: options.defaultAgent,
    timeoutSeconds: options.timeoutSeconds,
    onJudgeThread: (event) => {
      if (event.reused) reused++;
    },
    /** One line for the judges' verdicts read from earlier judging threads instead of run again. */
    noteReused: () => {
      if (reused > 0)
        options.onNote?.(
          `${reused} judging ${reused === 1 ? "thread" : "threads"} reused: those heads were judged before`,
        );
    },
  };
}
