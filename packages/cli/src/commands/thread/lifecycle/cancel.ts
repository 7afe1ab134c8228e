import { cancelWithBranches, leaseLifetimeMs, loadThreadView, resolveThread, shownThreadOf } from "@uwf/engine";
import type { ShownThread } from "@uwf/protocol";
import type { CommandContext } from "../../../pipeline/command-context.ts";

export interface CancelCommandOptions {
  thread: string;
  /** False with `--no-wait`: a running step is asked to stop, and the command returns at once. */
  wait?: boolean;
  /** `--timeout S`: how long to wait for a running step to stop. */
  timeout?: number;
}

/**
 * Cancels a thread (cancelWithBranches: a parent's unfinished branches too): it refuses further steps but its nodes stay, so it can be read and
 * forked. A thread being stepped, here or on another host, is asked to stop: its agent is stopped and
 * what it wrote kept, and the command waits for that (unless `--no-wait`). An ended thread is refused
 * and keeps `ended`; cancelling a cancelled thread changes nothing and succeeds, so a script may cancel twice.
 */
export async function cancelCommand(options: CancelCommandOptions, context: CommandContext) {
  const store = await context.openStore();
  const found = await resolveThread(store.refs, options.thread);
  // By default, one lease lifetime and one renewal: a holder on another host sees the request when it next renews.
  const lifetime = leaseLifetimeMs(await context.loadConfig());
  const { record, changed, holder, pending, branches } = await cancelWithBranches({
    store,
    home: context.home,
    threadId: found.id,
    host: context.host,
    now: context.now,
    signal: context.signal,
    waitMs: waitMs(options) ?? lifetime + lifetime / 4,
  });
  const stepper = holder === null ? "" : ` (pid ${holder.pid} on ${holder.host} was stepping it)`;
  return {
    // Counted as `show` counts it (loadThreadView): the same record, the same figures.
    result: shownThreadOf(await loadThreadView(store, record, { counts: true })),
    format: (value: ShownThread) => {
      if (pending) {
        return `thread ${value.id}: asked pid ${holder?.pid} on ${holder?.host}, which is stepping it, to stop and cancel it`;
      }
      const withBranches = branches.length === 0 ? "" : `, with its ${branches.length} unfinished branch(es)`;
      return changed
        ? `thread ${value.id} cancelled${stepper}${withBranches}`
        : `thread ${value.id} was already cancelled; nothing changed`;
    },
  };
}

/** `--no-wait` (return once asked) beats `--timeout`; neither leaves the engine's default. */
function waitMs(options: CancelCommandOptions): number | undefined {
  if (options.wait === false) return 0;
  return options.timeout === undefined ? undefined : options.timeout * 1000;
}
