import { resolveRetryPolicy, runWorker, WORKER_POLL_MS } from "@uwf/engine";
import type { CliEvent, UwfError, WorkerResult } from "@uwf/protocol";
import { EXIT_HANGUP, EXIT_INTERRUPTED, EXIT_OK } from "../exit-codes.ts";
import { hintFor } from "../hint-for.ts";
import { loadConfigForAgents } from "../home/load-config-for-agents.ts";
import type { CommandContext } from "../pipeline/command-context.ts";
import type { CommandOutcome } from "../pipeline/command-outcome.ts";
import { checkAgentFlag } from "./thread/step/check-agent-flag.ts";
import { resolveAgentFlag } from "./thread/step/resolve-agent-flag.ts";

export interface WorkerCommandOptions {
  concurrency?: number;
  workflow?: string;
  once?: boolean;
  maxSteps?: number;
  agent?: string;
  timeout?: number;
  /** Seconds running steps get to finish after SIGTERM before their agents are stopped. */
  grace?: number;
  pollMs?: number;
  retries?: number;
  backoffMs?: number;
  /** `--no-schedules` sets it false: fire no schedules. */
  schedules?: boolean;
}

/** How long running steps may finish after the first stop signal, unless `--grace` says otherwise. */
export const DEFAULT_GRACE_SECONDS = 30;

/**
 * `uwf worker`: the engine's runWorker over this home's store, with the flags and config.yaml's `worker:`
 * settings, its events printed as they come. The first SIGTERM (SIGINT, SIGHUP) drains it; the second
 * stops running agents at once. It exits 0 when it stopped on its own or for SIGTERM, 130 for SIGINT and
 * 129 for SIGHUP, as other commands do.
 */
export async function workerCommand(
  options: WorkerCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<WorkerResult>> {
  const defaultAgent = resolveAgentFlag(options.agent, context.cwd);
  const store = await context.openStore();
  const config = await loadConfigForAgents(context);
  checkAgentFlag(options.agent, config);
  // A closed stdout stops the worker as a second signal would: nothing more can be reported.
  const outputGone = new AbortController();
  let printFailure: unknown;
  const print = async (event: CliEvent) => {
    if (printFailure !== undefined) return;
    try {
      await context.emit(withHint(event), { showThread: true });
    } catch (error) {
      printFailure = error;
      outputGone.abort("SIGPIPE");
    }
  };
  // A fan-out is reported after the step that fanned out, as `step` reports it: the engine makes the
  // branches right before it reports that step, so the fan-out waits for the next event, and follows it
  // when that is its thread's step-finished.
  const held: CliEvent[] = [];
  const emit = async (event: CliEvent) => {
    if (event.type === "branches-started") {
      held.push(event);
      return;
    }
    const stepOfFanOut = event.type === "step-finished" && held.some((fanOut) => fanOut.thread === event.thread);
    if (stepOfFanOut) await print(event);
    for (const fanOut of held.splice(0)) await print(fanOut);
    if (!stepOfFanOut) await print(event);
  };
  const result = await runWorker({
    store,
    config,
    // Read again for each thread it claims: `uwf config set defaultAgent …` reaches the next thread.
    loadConfig: () =>
      loadConfigForAgents({
        ...context,
        loadConfig: async () => (await import("../home/load-home-config.ts")).loadConfig(context.home),
      }),
    home: context.home,
    host: context.host,
    name: `${context.host}:${process.pid}`,
    now: context.now,
    concurrency: options.concurrency ?? 1,
    ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
    once: options.once === true,
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
    pollMs: options.pollMs ?? config.worker?.pollMs ?? WORKER_POLL_MS,
    retry: resolveRetryPolicy(config.worker, {
      ...(options.retries === undefined ? {} : { retries: options.retries }),
      ...(options.backoffMs === undefined ? {} : { backoffMs: options.backoffMs }),
    }),
    ...(defaultAgent === undefined ? {} : { defaultAgent }),
    ...(options.timeout === undefined ? {} : { timeoutSeconds: options.timeout }),
    stop: AbortSignal.any([context.signal, outputGone.signal]),
    graceMs: (options.grace ?? DEFAULT_GRACE_SECONDS) * 1000,
    abort: AbortSignal.any([context.secondSignal(), outputGone.signal]),
    ...(options.schedules === false ? {} : { schedules: { cwd: context.cwd, newId: context.newId } }),
    onEvent: emit,
    onStderr: context.agentStderr,
    onWarning: context.warn,
  });
  if (printFailure !== undefined) throw printFailure;
  return { result, format: () => "", exitCode: exitCodeFor(result, context.signal), streamed: true };
}

/** A failed step's error as other commands report it: with the `uwf …` hint the CLI adds to its message. */
function withHint(event: CliEvent): CliEvent {
  if (event.type !== "step-failed") return event;
  const { error } = event;
  return {
    ...event,
    error: { ...error, message: `${error.message}${hintFor(error as Pick<UwfError, "code" | "data">)}` },
  };
}

/** SIGINT and SIGHUP exit as they do for other commands; SIGTERM, the way services are stopped, exits 0. */
function exitCodeFor(result: WorkerResult, signal: AbortSignal): number {
  if (result.reason !== "signal") return EXIT_OK;
  if (signal.reason === "SIGINT") return EXIT_INTERRUPTED;
  if (signal.reason === "SIGHUP") return EXIT_HANGUP;
  return EXIT_OK;
}
