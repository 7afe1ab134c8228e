import type { Store } from "@uwf/cas";
import type { LiveExport } from "@uwf/otel";

let live: LiveExport | null | undefined;

/**
 * The command's store, observed so that the steps it commits are exported as spans (see
 * @uwf/otel's startLiveExport). Only imported when telemetryWanted said so.
 */
export async function observeForTelemetry(store: Store, env: NodeJS.ProcessEnv): Promise<Store> {
  if (live === undefined) {
    const { readOtelSettings, startLiveExport } = await import("@uwf/otel");
    const settings = readOtelSettings(env);
    live = settings === null ? null : startLiveExport(settings);
  }
  return live === null ? store : live.observe(store);
}

/** Sends the spans still waiting, giving up at the export's exit deadline (2 s); never throws. */
export async function flushTelemetry(): Promise<void> {
  if (live !== undefined && live !== null) await live.flush();
}
