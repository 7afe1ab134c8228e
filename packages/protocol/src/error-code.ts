/**
 * Every code a UwfError carries. Scripts match on the code, so a code never changes meaning once
 * released; the CLI maps each to one exit code (`EXIT_CODE_BY_ERROR_CODE`), and docs/cli.md lists
 * them all. A new error class adds its code here first.
 */
export type ErrorCode =
  // The command line.
  /** Bad arguments or flags: the command line itself is wrong. */
  | "usage"
  /** A string that is not a node address, refused before any path is built from it. */
  | "invalid-address"
  /** A thread prefix that matches more than one thread. */
  | "ambiguous-thread"
  /** A short node address (4 or more characters) that more than one stored node starts with. */
  | "ambiguous-address"
  /** A short node address (4 or more characters) that no stored node starts with. */
  | "address-prefix-not-found"
  /** Start inputs that the workflow's `inputs:` schema refuses. */
  | "invalid-inputs"
  /** A file named on the command line (`cas put FILE`, `fork --output FILE`, `--prompt-file FILE`) is missing or not a file. */
  | "input-file-unreadable"
  /** `uwf config get KEY` for a key that config.yaml does not set. */
  | "config-key-not-set"
  /** Ctrl-C at one of `uwf setup`'s questions: nothing was written. */
  | "setup-cancelled"

  // Things named that are not there.
  /** No thread has that id or prefix. */
  | "thread-not-found"
  /** No node has that address in the store. */
  | "node-not-found"
  /** A workflow reference that is no file, registered name or stored workflow. */
  | "workflow-not-found"
  /** A stored node read as a workflow that is not one. */
  | "not-a-workflow"
  /** A node in a thread's chain that is neither a thread start nor a thread step. */
  | "not-a-thread-node"
  /** `uwf fork ADDRESS --from THREAD` where THREAD's chain does not hold the node. */
  | "node-not-on-thread"
  /** A stored node of another kind than the one its reader expected. */
  | "unexpected-node-kind"
  /** A thread's chain that does not lead back to a start node. */
  | "broken-chain"
  /** `uwf show --reply` on an agent run that recorded no reply. */
  | "no-reply"

  // Where a thread stands.
  /** Stepping a thread that has ended: nothing to do. */
  | "thread-ended"
  /** Stepping a suspended thread: it waits for `uwf resume`. */
  | "thread-suspended"
  /** Stepping a cancelled thread: it takes no more steps. */
  | "thread-cancelled"
  /** Stepping a thread a worker gave up on after its retries: `uwf resume` makes it active again. */
  | "thread-failed"
  /** `uwf cancel` on a thread that has already ended. */
  | "thread-already-ended"
  /** `uwf resume` on an active thread, which is neither suspended, ended nor failed. */
  | "not-resumable"
  /** A thread whose last reply leads nowhere, so it cannot take another step. */
  | "thread-stranded"
  /** A new thread with an id that is taken. */
  | "thread-exists"
  /** `uwf resume` whose step would start at or over one of the thread's limits: nothing was run or changed. */
  | "budget-exceeded"

  // Other processes.
  /** Another process holds the thread's step lease. */
  | "thread-busy"
  /** `uwf cancel` asked the thread's lease holder to stop, and it had not within the wait. */
  | "cancel-pending"
  /** The thread's head moved while the step ran: the step was kept but not appended. */
  | "head-conflict"
  /** Another process took the step's lease over while the step ran. */
  | "lease-lost"
  /** The store failed to renew the step's lease, so the step stopped. */
  | "lease-renewal-failed"
  /** Another process has held the ref store's write lock for longer than the busy timeout. */
  | "ref-store-busy"
  /** `uwf wait --timeout` ran out before every thread it waits for ended, suspended, failed or was cancelled. */
  | "wait-timeout"

  // Agents and their replies.
  /** The agent failed (exit ≠ 0, timeout, reply still invalid after the retries); its run is kept. */
  | "agent-failed"
  /** A reply whose frontmatter is missing or does not fit the role's schema. */
  | "invalid-reply"
  /** A reply given to `uwf fork --output` whose fields lead to no edge. */
  | "unroutable-reply"
  /** A scenario file of the scripted agent that cannot be read or is malformed. */
  | "invalid-scenario"
  /** Nothing says which agent plays a role. */
  | "no-agent"
  /** An agent alias that config.yaml does not define. */
  | "unknown-agent"
  /** An agent kind that this uwf cannot launch. */
  | "agent-unavailable"
  /** The working directory of an agent does not exist. */
  | "no-working-directory"
  /** A model that names a provider config.yaml does not define. */
  | "unknown-provider"
  /** The configured model cannot be reached with the configured key (`uwf setup`'s check). */
  | "model-access-failed"
  /** `claude --version` does not run (`uwf setup --agent claude-code`'s check). */
  | "claude-code-unavailable"
  /** The home's `.env` exists but cannot be read. */
  | "dotenv-unreadable"
  /** A file tool of the built-in agent was given a path outside the thread's working directory. */
  | "path-outside-workspace"
  /** A file tool of the built-in agent was given a file it must not use. */
  | "file-refused"

  // Workflows and routing.
  /** A workflow file that cannot be used. */
  | "invalid-workflow"
  /** A role's `frontmatter` that is not a valid JSON Schema. */
  | "invalid-output-schema"
  /** A workflow that has no role of that name. */
  | "unknown-role"
  /** No edge of the role holds for its reply. */
  | "no-transition"
  /** A condition threw while it was evaluated. */
  | "condition-failed"
  /** A condition ran past its time limit. */
  | "condition-timeout"
  /** An edge prompt that cannot be rendered or renders to nothing. */
  | "edge-prompt-failed"
  /** `uwf resume` on an ended thread whose workflow has no `$START` resume edge. */
  | "no-resume-edge"
  /** A prompt asked to show a step in full that was given by its role alone. */
  | "incomplete-history"

  // Configuration and the store.
  /** A config.yaml that cannot be used. */
  | "invalid-config"
  /** Stored bytes whose hash no longer matches their address. */
  | "corrupt-node"
  /** A value that has no canonical JSON form. */
  | "invalid-json-value"
  /** A thread record, registry entry or lease request that the ref store refuses to persist. */
  | "invalid-record"
  /** gc found threads that the ref store lost among what it would delete, so it deleted nothing. */
  | "gc-refused"
  /** The ref store's database is not a sound database. */
  | "ref-store-damaged"
  /** The ref store's file cannot be opened or written (read-only, full, no permission). */
  | "ref-store-unavailable"
  /** A ref store written by a newer uwf. */
  | "store-too-new"
  /** The store's server (PostgreSQL) cannot be reached, or went away during a call: retry later. */
  | "store-unreachable"
  /** The store's server refuses uwf: login, a missing database, privileges, no space; retrying will not help. */
  | "store-refused"
  /** A store URL (`--store`, `UWF_STORE`, `store:` in config) that uwf cannot use. */
  | "invalid-store-url"

  // The machine.
  /** No space left on the device, or the disk quota is exceeded. */
  | "no-space"
  /** A file system mounted read-only. */
  | "read-only-file-system"
  /** Missing permissions for a file or program. */
  | "permission-denied"
  /** An input/output error of the device. */
  | "io-error"
  /** Too many open files, in the process or in the system. */
  | "too-many-open-files"

  // Signals and the end of the process.
  /** Ctrl-C or SIGTERM during a step: the agent was stopped and the thread left as it was. */
  | "interrupted"
  /** SIGHUP (the terminal closed) during a step: the same as `interrupted`. */
  | "hung-up"
  /** The reader of stdout went away. */
  | "stdout-closed"
  /** An error uwf did not expect: a bug, to be reported. */
  | "internal";
