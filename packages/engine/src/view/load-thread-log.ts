import type { Store } from "@uwf/cas";
import type { LogResult, ThreadRecord } from "@uwf/protocol";
import { loadThreadView } from "./load-thread-view.ts";
import { logResultOf } from "./thread-view-results.ts";

/**
 * What `uwf log THREAD`, `GET /api/threads/:id/log` and MCP's `log` give of a thread: every step of its
 * chain, oldest first, the failed attempt after them, its outcome, spend, step counts and fan-outs.
 */
export async function loadThreadLog(store: Store, record: ThreadRecord): Promise<LogResult> {
  return logResultOf(await loadThreadView(store, record, { steps: true, branches: true, counts: true }));
}
