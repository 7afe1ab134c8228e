import yoctoSpinner from "yocto-spinner";
import type { ProgressStatus } from "./context.ts";

/** A live spinner on stderr while an agent runs: role, agent, elapsed time. Only used when stderr is a terminal. */
export function createStatusLine(color: boolean): (status: ProgressStatus | null) => void {
  let spinner: ReturnType<typeof yoctoSpinner> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  return (status) => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    spinner?.stop();
    spinner = null;
    if (status === null) return;
    const describe = () => {
      const seconds = Math.floor((Date.now() - status.startedAt) / 1000);
      return `step ${status.step} · ${status.role} · ${status.agent} · ${seconds}s`;
    };
    spinner = yoctoSpinner({ text: describe(), stream: process.stderr, color: color ? "cyan" : undefined }).start();
    timer = setInterval(() => {
      if (spinner !== null) spinner.text = describe();
    }, 1000);
    timer.unref();
  };
}
