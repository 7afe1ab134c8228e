import type { AgentActivity } from "@uwf/agent-kit";
import type { Store } from "@uwf/cas";
import type { CliEvent, Config } from "@uwf/protocol";

/** What every command gets besides its options. Commands never print and never exit. */
export interface CommandContext {
  home: string;
  /** `--store URL`: the store to use instead of `UWF_STORE`, `store:` in config or the home's files. */
  storeFlag: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Machine-readable output (`--json` or `--jsonl`): no notes on stderr, no questions asked. */
  json: boolean;
  /** `--jsonl` (events printed as they come) rather than `--json`; absent outside the CLI's own pipeline. */
  jsonLines?: boolean;
  quiet: boolean;
  verbose: boolean;
  color: boolean;
  /** Progress lines and spinners appear only when this is true. */
  interactive: boolean;
  host: string;
  /**
   * Workflows are named only by what the store holds (a registered name, an address, a stored thread,
   * a file of the home's `workflows/`), never by a path: set for requests from the web API and from
   * `uwf mcp --read-only`, whose callers must not read the user's files through uwf.
   */
  storedWorkflowsOnly?: boolean;
  now(): Date;
  newId(): string;
  /**
   * The store, opened on first use. `create: false` (read-only commands) creates nothing: a missing
   * home reads as empty, with a note.
   */
  openStore(options?: { create?: boolean }): Promise<Store>;
  /** Closes the store if this command opened it. */
  close(): Promise<void>;
  loadConfig(): Promise<Config>;
  /** Aborted on SIGINT / SIGTERM so a running agent can be stopped cleanly. */
  signal: AbortSignal;
  /**
   * For a command that drains on the first stop signal (`uwf worker`): a signal the second one aborts,
   * which then no longer exits the process at once (a third still does).
   */
  secondSignal(): AbortSignal;
  warn(message: string): void;
  /** A message for the person at the terminal (stderr), silenced by `-q` and `--json`. */
  note(message: string): void;
  /** Live status while an agent runs; a no-op unless interactive. */
  progress(status: ProgressStatus | null): void;
  /** Streams an agent's stderr (for `-v`). */
  agentStderr(chunk: string): void;
  /**
   * Reports what a command that runs or follows steps did, as it happens: the pipeline prints it at
   * once (a step's line in text, a line of NDJSON under `--jsonl`; nothing under `--json`, whose one
   * document comes from the command's result). Commands still never print.
   */
  emit(event: CliEvent, options?: EmitOptions): Promise<void>;
}

export interface EmitOptions {
  /** The text line names the event's thread: several threads' steps are printed as they come (`step T1 T2 …`). */
  showThread?: boolean;
}

/** What the status line shows: the agent of one step, or a batch's threads. */
export type ProgressStatus = StepProgress | BatchProgress;

export interface StepProgress {
  role: string;
  agent: string;
  startedAt: number;
  step: number;
  /** The agent's turns so far and the tool it called last, for agents that report them. */
  activity?: AgentActivity;
}

/** A batch (`uwf step T1 T2 … --parallel K`): how many of its threads are where, since it began. */
export interface BatchProgress {
  batch: { running: number; queued: number; done: number; failed: number };
  startedAt: number;
}
