import type {
  AgentOutputResult,
  ListResult,
  LiveEvent,
  LogResult,
  ShowResult,
  TreeResult,
  UwfErrorJson,
} from "@uwf/protocol";

/** A uwf command by its words in the command table: `["list"]`, `["workflow", "show"]`, `["eval", "show"]`. */
export type CommandPath = readonly string[];

/**
 * What a command or a read gave: its `--json` result and exit code, or the error the CLI would have
 * reported (with the result it printed before it, if any: `uwf eval show` prints the report, then exits 3
 * for its gate).
 */
export type CommandOutcome<Result = unknown> =
  | { ok: true; result: Result; exitCode: number }
  | { ok: false; error: UwfErrorJson; exitCode: number; result?: unknown };

/** Which threads `GET /api/threads` lists: its query's filters, named as `uwf list`'s flags. */
export interface ThreadListRequest {
  status?: string;
  outcome?: string;
  workflow?: string;
  /** Only the forks of this thread (id or unique prefix), and with `recursive` theirs, at any depth. */
  forksOf?: string;
  recursive?: boolean;
  /** Only threads being stepped now, each with its lease's holder. */
  running?: boolean;
  /** Words matched as word starts in ids, workflows, prompts, roles and field values. */
  search?: string;
  limit?: number;
  offset?: number;
}

/**
 * What the server asks of the CLI. The thread views are read from the engine (the one thread view the
 * CLI's `show`, `log`, `list` and `tree` print and `uwf mcp` gives), each answering what the command's
 * `--json` would, errors included; actions run a command exactly as `uwf COMMAND --json` would (same
 * options object as the command's flags, same engine calls, leases, budgets and errors). And the store's
 * change feed. The CLI implements it, so the UI package never loads the store, the engine or the agents.
 */
export interface UiBackend {
  run(command: CommandPath, options: Record<string, unknown>, signal: AbortSignal): Promise<CommandOutcome>;
  /**
   * A thread's view, or any node expanded (a step with its output, body and agent run), by id, address or
   * unique prefix; with `text`, what a step's agent was sent (`prompt`) or answered (`reply`). As `uwf show`.
   */
  show(reference: string, text?: "prompt" | "reply"): Promise<CommandOutcome<ShowResult>>;
  /** A thread's steps, failed attempt, outcome, spend and fan-outs, as `uwf log`. */
  threadLog(thread: string): Promise<CommandOutcome<LogResult>>;
  /** What a thread's agents printed as they ran, or only step `step`'s, as `uwf log --agent-output`. */
  agentOutput(thread: string, step?: number): Promise<CommandOutcome<AgentOutputResult>>;
  /** A thread's family from its root original, as `uwf tree`. */
  threadTree(thread: string): Promise<CommandOutcome<TreeResult>>;
  /** A page of threads, newest first, as `uwf list`. */
  listThreads(request: ThreadListRequest): Promise<CommandOutcome<ListResult>>;
  /** Calls `listener` with each change any process makes to the store; returns a function that stops it. */
  watch(listener: (event: LiveEvent) => void): () => void;
}
