import type { Store } from "../../packages/cas/src/index.ts";
import type { StepThreadOptions } from "../../packages/engine/src/index.ts";
import type { Config } from "../../packages/protocol/src/index.ts";

/**
 * The options of one in-process stepThread, as the benchmarks' store builders step their threads: the
 * scripted agent playing `scenarioFile`, no progress or stderr shown, a signal that never aborts, on the
 * clock `now` (the real one unless told).
 */
export function scriptedStepOptions(
  store: Store,
  config: Config,
  home: string,
  threadId: string,
  scenarioFile: string,
  now: () => Date = () => new Date(),
): StepThreadOptions {
  return {
    store,
    config,
    home,
    now,
    threadId,
    defaultAgent: `scripted:${scenarioFile}`,
    signal: new AbortController().signal,
    host: "bench",
    onProgress: () => {},
    onStderr: () => {},
  };
}
