import type { Store } from "@uwf/cas";
import { stepUntilDone } from "@uwf/engine";
import { type Config, messageOf, type ThreadRecord } from "@uwf/protocol";

export interface StepToEndOptions {
  store: Store;
  config: Config;
  home: string;
  /** The agent of roles that name none (`--agent`, a variant's agent). */
  defaultAgent?: string;
  timeoutSeconds?: number;
  signal: AbortSignal;
  host: string;
  now(): Date;
  /** Asked before every step: why no step may start now (Ctrl-C, a spend limit), or null when one may. */
  stopReason(): string | null;
  /** After every step, with the thread as it then stands (what it spent so far is in its usage). */
  onStepped?(record: ThreadRecord): void;
  onStderr?(chunk: string): void;
  onWarning?(message: string): void;
}

/**
 * Steps a thread one step at a time until it is no longer active: ended, suspended, failed, or waiting
 * for branches that could not all be stepped here. A step that fans out goes on with its branches (all
 * of them, then the join), so a fan-out is run as a whole. Before each step `stopReason` is asked; the
 * reason it gives, or the error of a step that failed without failing the thread, comes back as
 * `error` beside the thread as it stands. A thread that failed is no error: it is a finished run.
 */
export async function stepToEnd(
  initial: ThreadRecord,
  options: StepToEndOptions,
): Promise<{ record: ThreadRecord; error: string | null }> {
  let record = initial;
  let wasWaiting = false;
  while (record.status === "active" || (record.status === "waiting" && !wasWaiting)) {
    const stopped = options.stopReason();
    if (stopped !== null) return { record, error: stopped };
    wasWaiting = record.status === "waiting";
    const done = await stepUntilDone({
      store: options.store,
      config: options.config,
      home: options.home,
      threadId: record.id,
      maxSteps: 1,
      ...(wasWaiting ? { allBranches: true } : {}),
      defaultAgent: options.defaultAgent,
      timeoutSeconds: options.timeoutSeconds,
      signal: options.signal,
      host: options.host,
      now: options.now,
      onProgress: () => {},
      onStderr: options.onStderr ?? (() => {}),
      onWarning: options.onWarning,
    });
    record = done.record;
    options.onStepped?.(record);
    if (done.error !== undefined && record.status === "active") {
      return { record, error: options.stopReason() ?? messageOf(done.error) };
    }
    if (done.error !== undefined) break;
  }
  return { record, error: null };
}
