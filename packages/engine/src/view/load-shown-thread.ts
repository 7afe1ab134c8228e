import type { Store } from "@uwf/cas";
import type { ShownThread, ThreadRecord } from "@uwf/protocol";
import type { SuspensionWait } from "../answers/read-suspension-wait.ts";
import { loadThreadView } from "./load-thread-view.ts";
import { shownThreadOf } from "./thread-view-results.ts";

/** A thread as `show` reports it, and until when it waits when a role with a `suspendTimeout` suspended it. */
export interface ShownThreadView {
  shown: ShownThread;
  /** Null unless it is suspended by a role with a `suspendTimeout`. */
  wait: SuspensionWait | null;
}

/**
 * What `uwf show THREAD`, `GET /api/threads/:id` and MCP's `show` give of a thread: its record, its budget
 * with what it and its branches spent (the figures its steps are checked against), its step counts, start
 * inputs, fan-outs and the question it waits on.
 */
export async function loadShownThread(store: Store, record: ThreadRecord): Promise<ShownThreadView> {
  const view = await loadThreadView(store, record, {
    inputs: true,
    branches: true,
    suspension: true,
    counts: true,
    wait: true,
  });
  return { shown: shownThreadOf(view), wait: view.wait ?? null };
}
