import type { BudgetLimit } from "../budget/budget.ts";
import type { WorkflowProblem } from "../results/workflow-results.ts";
import type { Lease, ThreadFailure, ThreadStatus } from "../threads/thread-record.ts";

/**
 * Every code a UwfError carries, with the type of the `data` an error of that code holds (printed
 * under `--json`). Scripts match on the code, so a code never changes meaning once released; the CLI
 * maps each to one exit code (`EXIT_CODE_BY_ERROR_CODE`, which the types keep complete), and
 * docs/cli.md lists them all. A new error class adds its code here first, with its data.
 */
export interface ErrorDataByCode {
  // The command line.
  /** Bad arguments or flags: the command line itself is wrong. */
  usage: UsageData;
  /** A string that is not a node address, refused before any path is built from it. */
  "invalid-address": { input: string };
  /** A thread prefix that matches more than one thread. */
  "ambiguous-thread": { thread: string; candidates: string[] };
  /** A short node address (4 or more characters) that more than one stored node starts with. */
  "ambiguous-address": { prefix: string; candidates: string[]; more: boolean };
  /** A short node address (4 or more characters) that no stored node starts with. */
  "address-prefix-not-found": { prefix: string };
  /** Start inputs that the workflow's `inputs:` schema refuses. */
  "invalid-inputs": { workflow: string; problem: string };
  /** A file named on the command line (`cas put FILE`, `fork --output FILE`, `--prompt-file FILE`) is missing or not a file. */
  "input-file-unreadable": { file: string; reason: string };
  /** An assertion (`--assert`, a suite's `assertions:` item) that cannot be used: its form, a field, or a JSONata expression that does not compile. */
  "invalid-assertion": { assertion: string; problem: string; field: string | null; position: number | null };
  /**
   * `uwf resume --answer` that the suspended role's `answer:` schema refuses (`field` names where, null
   * for the whole answer), an answer that is no YAML or JSON object, `--answer` to a role that takes free
   * text, or `-p` to one that declares `answer:`. Nothing was run or recorded; the thread stays suspended.
   */
  "invalid-answer": { thread: string; role: string; field: string | null; problem: string };
  /** `uwf schedule add` (or a workflow's `schedule:`) with a cron expression, time zone or option that cannot be used. */
  "invalid-schedule": { schedule: string; field: string; problem: string };
  /** `uwf config get KEY` for a key that config.yaml does not set. */
  "config-key-not-set": { key: string };
  /** Ctrl-C at one of `uwf setup`'s questions: nothing was written. */
  "setup-cancelled": NoData;

  // Things named that are not there.
  /** No thread has that id or prefix. */
  "thread-not-found": { thread: string; candidates: string[] };
  /** No schedule has that name. */
  "schedule-not-found": { schedule: string; known: string[] };
  /** `uwf schedule add` with a name that is taken (a workflow's `schedule:` replaces its own). */
  "schedule-exists": { schedule: string };
  /** No node has that address in the store. */
  "node-not-found": { address: string };
  /** A workflow reference that is no file, registered name or stored workflow. */
  "workflow-not-found": { file: string } | { workflow: string; cwd: string } | { workflow: string; stored: true };
  /** A stored node read as a workflow that is not one. */
  "not-a-workflow": { address: string };
  /** A node in a thread's chain that is neither a thread start nor a thread step. */
  "not-a-thread-node": { address: string; kind: string };
  /** `uwf fork ADDRESS --from THREAD` where THREAD's chain does not hold the node. */
  "node-not-on-thread": { address: string; thread: string };
  /** A stored node of another kind than the one its reader expected. */
  "unexpected-node-kind": { address: string; expected: string; actual: string | null };
  /** A thread's chain that does not lead back to a start node. */
  "broken-chain": { head: string };
  /** `uwf show --reply` on an agent run that recorded no reply. */
  "no-reply": { address: string };

  // Where a thread stands.
  /** Stepping a thread that has ended: nothing to do. */
  "thread-ended": { thread: string; head: string };
  /** Stepping a suspended thread: it waits for `uwf resume`. */
  "thread-suspended": {
    thread: string;
    reason: string | null;
    limit: BudgetLimit | null;
    /** The answer its role takes: `text` (`resume -p`) or `fields` (`resume --answer`); null when not read. */
    answer: "text" | "fields" | null;
  };
  /** Stepping a cancelled thread: it takes no more steps. */
  "thread-cancelled": { thread: string; run: string | null };
  /** Stepping a thread a worker gave up on after its retries: `uwf resume` makes it active again. */
  "thread-failed": { thread: string; failure: ThreadFailure | null };
  /** `uwf cancel` on a thread that has already ended. */
  "thread-already-ended": { thread: string; head: string };
  /** `uwf resume` on an active thread, which is neither suspended, ended nor failed. */
  "not-resumable": { thread: string; status: ThreadStatus };
  /**
   * A fan-out's join cannot be met: under `all` a branch failed or was cancelled; under `any` or
   * `quorum` too few branches can still end. The parent's failure, naming the branch (or the count).
   */
  "branch-failed": { thread: string; branch: string | null; branchThread: string | null; status: ThreadStatus | null };
  /** A thread whose last reply leads nowhere, so it cannot take another step. */
  "thread-stranded": { thread: string; head: string; role: string; problem: string };
  /** Stepping a thread whose record is behind its own later steps (restored from an older copy): `uwf cas recover` first. */
  "thread-record-behind": { thread: string; head: string; steps: number; newerHead: string; newerSteps: number };
  /** A new thread with an id that is taken. */
  "thread-exists": { id: string };
  /**
   * A suspension's `suspendTimeout` passed unanswered and its role has no `$timeout` edge: the thread's
   * failure (recorded by the worker or `uwf tick` that found it due).
   */
  "suspend-timeout": { thread: string; role: string; after: string; deadline: string };
  /** A new evaluation report entry with an id that is taken. */
  "eval-report-exists": { id: string };
  /** `uwf resume` whose step would start at or over one of the thread's limits: nothing was run or changed. */
  "budget-exceeded": { thread: string; limit: BudgetLimit; value: number; spent: number };

  // Other processes.
  /** Another process holds the thread's step lease. */
  "thread-busy": { thread: string; holder: Lease; expiresInSeconds: number };
  /** `uwf cancel` asked the thread's lease holder to stop, and it had not within the wait. */
  "cancel-pending": { thread: string; holder: Lease; waitedSeconds: number };
  /** The thread's head moved while the step ran: the step was kept but not appended. */
  "head-conflict": { thread: string; expectedHead: string; step: string };
  /** Another process took the step's lease over while the step ran. */
  "lease-lost": LeaseLostData;
  /** The store failed to renew the step's lease, so the step stopped. */
  "lease-renewal-failed": LeaseLostData;
  /** Another process has held the ref store's write lock for longer than the busy timeout. */
  "ref-store-busy": { path: string; detail: string };
  /** `uwf wait --timeout` ran out before every thread it waits for ended, suspended, failed or was cancelled. */
  "wait-timeout": { timeoutSeconds: number; threads: string[] };

  // Agents and their replies.
  /** The agent failed (exit ≠ 0, timeout, reply still invalid after the retries); its run is kept. */
  "agent-failed": { thread: string; role: string; run: string; detail: string };
  /** A reply whose frontmatter is missing or does not fit the role's schema. */
  "invalid-reply": { problem: string } | { file: string; role: string; problem: string };
  /** A reply given to `uwf fork --output` whose fields lead to no edge. */
  "unroutable-reply": { file: string; role: string; problem: string };
  /** A scenario file of the scripted agent that cannot be read or is malformed. */
  "invalid-scenario": { file: string };
  /** Nothing says which agent plays a role. */
  "no-agent": { workflow: string; role: string };
  /** An agent alias that config.yaml does not define. */
  "unknown-agent": { alias: string; source: string; knownAliases: string[] };
  /** An agent kind that this uwf cannot launch. */
  "agent-unavailable": { alias: string; kind: string };
  /** The working directory of an agent does not exist. */
  "no-working-directory": { cwd: string };
  /** A model that names a provider config.yaml does not define. */
  "unknown-provider": { provider: string; model: string; known: string[] };
  /** The configured model cannot be reached with the configured key (`uwf setup`'s check). */
  "model-access-failed": { model: string; problem: string };
  /** `claude --version` does not run (`uwf setup --agent claude-code`'s check). */
  "claude-code-unavailable": { command: string; problem: string };
  /** The home's `.env` exists but cannot be read. */
  "dotenv-unreadable": { file: string };
  /** A file tool of the built-in agent was given a path outside the thread's working directory. */
  "path-outside-workspace": { path: string; workspace: string };
  /** A file tool of the built-in agent was given a file it must not use. */
  "file-refused": { path: string; reason: string };
  /** An agent's MCP server that could not be started or used; `field` names its setting at fault (`env.TOKEN`), else null. */
  "mcp-server-failed": { server: string; field: string | null; problem: string };

  // Workflows and routing.
  /** A workflow file that cannot be used. */
  "invalid-workflow": { file: string; problems: WorkflowProblem[]; warnings: WorkflowProblem[] };
  /** An eval suite file (`uwf eval --suite`) that cannot be used: every problem located in the file. */
  "invalid-suite": { file: string; problems: WorkflowProblem[] };
  /** A role's `frontmatter` that is not a valid JSON Schema. */
  "invalid-output-schema": { reason: string };
  /** A workflow that has no role of that name. */
  "unknown-role": { workflow: string; role: string };
  /** No edge of the role holds for its reply. */
  "no-transition": { role: string; tried: TriedTransition[]; status: unknown };
  /** A condition threw while it was evaluated. */
  "condition-failed": { condition: string; reason: string; jsonataCode: string | null };
  /** A condition ran past its time limit. */
  "condition-timeout": { condition: string; timeoutMs: number };
  /** An edge prompt that cannot be rendered or renders to nothing. */
  "edge-prompt-failed": { from: string; to: string; reason: string };
  /**
   * A reply routed to a fan-out whose branches cannot be planned from it: `foreach` did not give a
   * list, or a branch's prompt or inputs cannot be rendered. `field` is where in the edge (`foreach`,
   * `parallel.security.prompt`, `branch.inputs.path`); `branch` the branch's key, null for `foreach` itself.
   */
  "fan-out-failed": { from: string; edge: number; field: string; branch: string | null; reason: string };
  /** `uwf resume` on an ended thread whose workflow has no `$START` resume edge. */
  "no-resume-edge": { workflow: string };
  /** A prompt asked to show a step in full that was given by its role alone. */
  "incomplete-history": { step: number; role: string };

  // Configuration and the store.
  /** A config.yaml that cannot be used. */
  "invalid-config": { file: string; problems: ConfigProblem[] };
  /** Stored bytes whose hash no longer matches their address. */
  "corrupt-node": { address: string; detail: string };
  /** A value that has no canonical JSON form. */
  "invalid-json-value": { path: string; reason: string };
  /** A thread record, registry entry or lease request that the ref store refuses to persist. */
  "invalid-record": { kind: string; problems: string[] };
  /** gc found threads that the ref store lost among what it would delete, so it deleted nothing. */
  "gc-refused": { startNodes: number; stepNodes: number; recordsThreads: boolean } | { heads: number; steps: number };
  /** The ref store's database is not a sound database. */
  "ref-store-damaged": { path: string; detail: string };
  /** The ref store's file cannot be opened or written (read-only, full, no permission). */
  "ref-store-unavailable": { path: string; sqliteCode: string; detail: string };
  /** A ref store written by a newer uwf. */
  "store-too-new": { path: string; version: number; supported: number };
  /** The store's server (PostgreSQL) cannot be reached, or went away during a call: retry later. */
  "store-unreachable": { url: string; detail: string };
  /** The store's server refuses uwf: login, a missing database, privileges, no space; retrying will not help. */
  "store-refused": { url: string; sqlState: string; detail: string };
  /** A store URL (`--store`, `UWF_STORE`, `store:` in config) that uwf cannot use. */
  "invalid-store-url": { url: string; problem: string };

  // Evaluations.
  /** No stored evaluation report has that id or prefix. */
  "eval-report-not-found": { report: string };
  /** A report prefix that more than one stored report starts with. */
  "ambiguous-eval-report": { report: string; candidates: string[] };
  /** `uwf eval` was given nothing to score: no thread, no family, no filter and no suite. */
  "nothing-to-evaluate": NoData;
  /** The report's gate did not hold (exit 3): the report was still printed and stored. */
  "eval-gate-failed": { report: string; failed: string[] };
  /** Samples errored (a scorer crashed, a judge failed) or runs did not start, without `--allow-errors` (exit 1). */
  "eval-errored": { report: string; errored: number; unstarted: number };
  /** A stored report of the other kind: an evaluation given to `explore show`, or an exploration to `eval show`. */
  "wrong-report-kind": { report: string; kind: string; expected: string };

  // The machine.
  /** No space left on the device, or the disk quota is exceeded. */
  "no-space": SystemErrorData;
  /** A file system mounted read-only. */
  "read-only-file-system": SystemErrorData;
  /** Missing permissions for a file or program. */
  "permission-denied": SystemErrorData;
  /** An input/output error of the device. */
  "io-error": SystemErrorData;
  /** Too many open files, in the process or in the system. */
  "too-many-open-files": SystemErrorData;
  /** `uwf ui` cannot listen on its address and port: the port is in use, the address is not this machine's, or not allowed. */
  "listen-failed": { host: string; port: number; reason: string };

  // Signals and the end of the process.
  /** Ctrl-C or SIGTERM during a step: the agent was stopped and the thread left as it was. */
  interrupted: InterruptedData;
  /** SIGHUP (the terminal closed) during a step: the same as `interrupted`. */
  "hung-up": InterruptedData;
  /** The reader of stdout went away. */
  "stdout-closed": NoData;
  /** An error uwf did not expect: a bug, to be reported. */
  internal: NoData;

  // `uwf fork NODE --workflow W` (issue 34).
  /**
   * `uwf fork NODE --workflow W` where W cannot continue the chain: `role` (the node's, a suspended role
   * or a pending join's) is not one of W's roles, or W's graph cannot route from the node (`role` null
   * when the node is the start node). Nothing was written.
   */
  "workflow-mismatch": {
    workflow: string;
    workflowAddress: string;
    node: string;
    step: number;
    role: string | null;
    problem: string;
  };

  // OpenTelemetry export.
  /** `uwf trace export`: the collector refused the spans, or could not be reached in time. */
  "trace-export-failed": { endpoint: string; spans: number; reason: string };
  // Scenarios.
  /** `uwf scenario export` of a thread the scripted agent could not play back step for step (`problem` says why). */
  "scenario-not-exportable": { thread: string; problem: string };
}

/** Every code a UwfError carries: the keys of ErrorDataByCode. */
export type ErrorCode = keyof ErrorDataByCode;

/** The data of an error that carries none. */
export type NoData = Record<string, never>;

/**
 * The data of a `usage` error: what the command line named (a free-form record, `needs` left out), or
 * what a resume should have brought (ResumeMismatchError), told apart by `needs`.
 */
export type UsageData = ({ thread: string } & ResumeNeed) | CommandLineData;

/** What a command line that is wrong named (`{ cwd }`, `{ key }`, …): free-form, without `needs`. */
export type CommandLineData = { readonly [key: string]: unknown; needs?: undefined };

/** What a resume should have brought for where its thread stands. */
export type ResumeNeed =
  /** A raised limit and no answer: the budget suspended the thread, no role asked anything (`data.limit`). */
  | { needs: "raised-limit"; limit: BudgetLimit }
  /** An answer: a role suspended the thread with a question (`data.role`). */
  | { needs: "answer"; role: string | null }
  /** A prompt: the thread has ended, and continuing it takes one. */
  | { needs: "prompt" }
  /** No answer: a worker set the thread `failed`, and its step is tried again as it was. */
  | { needs: "retry" };

/** A step that lost its lease (`lease-lost`) or could not renew it (`lease-renewal-failed`). */
export type LeaseLostData = { thread: string; problem: string; run: string | null };

/** A step stopped by a signal (`interrupted`, `hung-up`), or `uwf fork --count` stopped after some forks. */
export type InterruptedData =
  | { signal: string; run: string | null }
  | { signal: string; made: number; asked: number }
  | { signal: string; report: string; samples: number };

/** A file system's refusal (`no-space`, `permission-denied`, …): the system's code, its call and the file. */
export type SystemErrorData = { path: string | null; systemCode: string; syscall: string | null };

/** One problem in `config.yaml`, located. `line` and `column` are 1-based, null when unknown. */
export interface ConfigProblem {
  line: number | null;
  column: number | null;
  /** Dotted field path (`agents.claude.command`), empty for the file as a whole. */
  path: string;
  message: string;
}

/** One edge the moderator looked at and why it did not apply. */
export interface TriedTransition {
  role: string;
  condition: string | null;
  status: string | null;
}
