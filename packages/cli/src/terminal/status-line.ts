import yoctoSpinner from "yocto-spinner";
import type { ProgressStatus } from "../pipeline/command-context.ts";

/**
 * A live spinner on stderr while an agent runs: step, role, agent, elapsed time and, for agents that
 * report it, the turn and the last tool called; during a batch, how many of its threads run, wait, are
 * done and failed. Only used when stderr is a terminal. Its colour is
 * decided when it loads (see createProgress in pipeline/make-context.ts).
 */
export function createStatusLine(): (status: ProgressStatus | null) => void {
  let spinner: ReturnType<typeof yoctoSpinner> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let current: ProgressStatus | null = null;
  return (status) => {
    // The same step telling what its agent does now: the text changes, the spinner goes on.
    if (status !== null && spinner !== null && current !== null && isSameStep(current, status)) {
      current = status;
      spinner.text = describeStatus(status, Date.now());
      return;
    }
    if (timer !== null) clearInterval(timer);
    timer = null;
    spinner?.stop();
    spinner = null;
    current = status;
    if (status === null) return;
    spinner = yoctoSpinner({
      text: describeStatus(status, Date.now()),
      stream: process.stderr,
      color: "cyan",
      // Its own handlers would exit at once on Ctrl-C or SIGTERM, before uwf stops the agent and says
      // where the agent's output was kept: uwf's signal handlers stop the command (see pipeline/signals/install-signal-handlers.ts).
      handleSignals: false,
    }).start();
    timer = setInterval(() => {
      if (spinner !== null && current !== null) spinner.text = describeStatus(current, Date.now());
    }, 1000);
    timer.unref();
  };
}

/** `step 3 · writer · claude · 12s · turn 4 · Bash`; for a batch, `2 running · 5 queued · 3 done · 1 failed · 12s`. */
export function describeStatus(status: ProgressStatus, now: number): string {
  const seconds = Math.max(0, Math.floor((now - status.startedAt) / 1000));
  if ("batch" in status) {
    const { running, queued, done, failed } = status.batch;
    return [`${running} running`, `${queued} queued`, `${done} done`, `${failed} failed`, `${seconds}s`].join(" · ");
  }
  const parts = [`step ${status.step}`, status.role, status.agent, `${seconds}s`];
  if (status.activity !== undefined) {
    parts.push(`turn ${status.activity.turns}`);
    if (status.activity.tool !== null) parts.push(status.activity.tool);
  }
  return parts.join(" · ");
}

/** The same step, or the same batch: its line is updated in place rather than started again. */
function isSameStep(left: ProgressStatus, right: ProgressStatus): boolean {
  if ("batch" in left || "batch" in right)
    return "batch" in left && "batch" in right && left.startedAt === right.startedAt;
  return left.step === right.step && left.role === right.role && left.startedAt === right.startedAt;
}
