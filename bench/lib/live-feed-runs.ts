import { openFileStore, openPostgresStore } from "../../packages/cas/src/index.ts";
import { type LiveLatencyRun, measureLiveLatency } from "./live-feed-benchmark.ts";
import { COMMAND_AGENT_ALIAS, findChain, type SuiteStores } from "./prepared-stores.ts";
import type { SuiteContext } from "./process-groups.ts";

/**
 * Issue 30: `steps` steps by separate `uwf step` processes (the command agent) on the shortest chain of each
 * store, the large embedded one and the PostgreSQL one, each timed to the live feed of a watcher.
 */
export async function measureLiveFeeds(
  context: SuiteContext,
  stores: SuiteStores,
  shortest: number,
  steps: number,
): Promise<LiveLatencyRun[]> {
  const { environment, progress } = context;
  const live: LiveLatencyRun[] = [];
  for (const [backend, prepared, url, label] of [
    ["embedded", stores.large, undefined, `embedded, ${stores.labels.large}`],
    ["postgres", stores.postgres, stores.postgresUrl, stores.labels.postgres],
  ] as const) {
    const run = await measureLiveLatency({
      backend,
      store: label,
      binary: context.binary,
      work: context.work,
      env:
        url === undefined
          ? environment(prepared.generated.home)
          : { ...environment(prepared.generated.home), UWF_STORE: url },
      open: () => (url === undefined ? openFileStore(prepared.generated.home) : openPostgresStore(url)),
      threadId: findChain(prepared.generated, shortest).threadIds[0] as string,
      agent: COMMAND_AGENT_ALIAS,
      steps,
    });
    live.push(run);
    progress(`live feed [${label}]: median ${run.recordToEvent.medianMs} ms (max ${run.recordToEvent.maxMs} ms)`);
  }
  return live;
}
