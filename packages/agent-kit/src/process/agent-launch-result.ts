import type { ModelUsage, PermissionDenial, Usage } from "@uwf/protocol";

/**
 * What one launch of an agent produced. Success and failure have this one
 * shape: an agent that fails, times out or is interrupted is data, not an
 * exception. `error` is null only when the reply can be used.
 */
export interface AgentLaunchResult {
  /** The agent's raw reply (a command agent's whole stdout), kept even when the launch failed. */
  reply: string;
  exitCode: number | null;
  /** The signal that ended the agent, e.g. `SIGTERM` after a timeout. */
  signal: string | null;
  timedOut: boolean;
  /** Stopped through the caller's AbortSignal (Ctrl-C). */
  interrupted: boolean;
  /** The last few KiB of stderr. */
  stderrTail: string;
  /** Why the launch failed: could not start, exit code ≠ 0, timeout, interrupt, scenario mismatch. */
  error: string | null;
  startedAt: string;
  completedAt: string;
  usage: Usage | null;
  sessionId: string | null;
  /** The conversation (model messages, tool calls and results) for agents that keep one; stored with the run. */
  transcript?: unknown[] | null;
  /** The program and arguments run, or null for agents that run no program (scripted). */
  command: string[] | null;
  /** Model turns taken, for agents that report them (Claude Code's `num_turns`). */
  turns?: number | null;
  /** This launch's own tokens and cost per model, for agents that report models. */
  modelUsage?: ModelUsage | null;
  /** The running totals the agent reported for its session after this launch (see `PreviousVisit.sessionUsage`). */
  sessionUsage?: ModelUsage | null;
  /** Tool calls the agent's program refused for lack of permission. */
  permissionDenials?: PermissionDenial[];
  /** Why the stored conversation could not be continued, when the launch started a fresh one instead. */
  freshStart?: string | null;
  /** Why the usage the agent wrote to `UWF_USAGE_FILE` was not counted (a malformed file). */
  usageProblem?: string | null;
  /** True when the launch continued the previous visit's conversation and so was sent `continuationPrompt`. */
  continued?: boolean;
}

/** What a running agent is doing, for a status line: the model turns so far and the tool it called last. */
export interface AgentActivity {
  turns: number;
  tool: string | null;
}

/** The environment of one step, given to agents as `UWF_THREAD`, `UWF_ROLE`, `UWF_STEP`, `UWF_HOME`. */
export interface AgentEnvironment {
  thread: string;
  role: string;
  /** The number of the step being made (1 for the thread's first step). */
  step: number;
  home: string;
}

/** What every agent runner gets for one launch, whatever its kind. */
export interface AgentRunContext {
  prompt: string;
  /** The thread's working directory: where the agent runs. */
  cwd: string;
  env: AgentEnvironment;
  /** Milliseconds before the agent is stopped; 0 means no limit. */
  timeoutMs: number;
  /** Abort (Ctrl-C) to stop the agent; the result is then marked `interrupted`. */
  signal?: AbortSignal;
  /** Each chunk of the agent's stderr (or progress) as it comes, for `-v`. */
  onStderr?: (chunk: string) => void;
  /** Each chunk of a command agent's stdout (its reply) as it comes: a step's live output. */
  onStdout?: (chunk: string) => void;
  /** Milliseconds between SIGTERM and SIGKILL when stopping a process group. Default 2000. */
  killGraceMs?: number;
  /**
   * Told the pid of each program the agent starts as the leader of its own process group (its id),
   * as soon as it starts: a stepper records it in its lease, so that if it dies, whoever takes over
   * can stop the orphaned agent. Agents that run in-process start none.
   */
  onSpawn?: (pid: number) => void;
  /**
   * Values no variable of the agent's environment may hold, beyond the store's own variables: the
   * password of the store in use (`storeSecretValues`). `launchAgent` sets it from `config.store`.
   */
  secretValues?: readonly string[];
  /** Told as the agent takes turns and calls tools, for agents that report them (Claude Code). */
  onActivity?: (activity: AgentActivity) => void;
  /** A problem worth telling the user even without `-v`: tool calls refused, a conversation started afresh. */
  onWarning?: (message: string) => void;
}
