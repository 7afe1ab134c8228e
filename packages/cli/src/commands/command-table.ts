import type { CommandContext } from "../pipeline/command-context.ts";
import { type CommandEntry, type CommandTable, defineCommand, withoutOptions } from "./define-command.ts";
import type { McpCommandOptions } from "./mcp/mcp.ts";
import {
  collect,
  parseGcGraceSeconds,
  parseNonNegativeInteger,
  parsePositiveInteger,
  parsePositiveNumber,
  parseRate,
  parseTimeoutSeconds,
} from "./option-value-parsers.ts";
import type { UiCommandOptions } from "./ui/ui.ts";

/**
 * Every command: its arguments, flags, description, examples and the module that runs it. The
 * pipeline (pipeline/run-cli.ts) builds commander's tree from this table, help shows its examples, and completion walks it.
 * A module is imported only when its command runs; its options type checks the entry here.
 */

/**
 * The headings `uwf --help` (and `uwf thread --help`) lists the commands under, in this order; each
 * visible top-level command is in one. Within a heading, commands keep this order.
 */
export const HELP_GROUPS: ReadonlyArray<{ heading: string; commands: readonly string[] }> = [
  { heading: "Run threads:", commands: ["start", "run", "step", "resume", "cancel", "delete", "thread"] },
  { heading: "Inspect threads:", commands: ["list", "show", "log", "read", "tree", "ui", "trace", "mcp"] },
  {
    heading: "Experiment (fork, compare and judge):",
    commands: ["fork", "diff", "compare", "eval", "explore", "scenario", "replay"],
  },
  { heading: "Workers:", commands: ["worker", "queue", "wait", "schedule", "tick"] },
  { heading: "Store:", commands: ["cas", "store"] },
  { heading: "Set up:", commands: ["init", "setup", "config", "workflow", "completion", "version", "help"] },
];

/** Shown under `uwf --help`. */
export const PROGRAM_EXAMPLES: readonly string[] = [
  'uwf run review -p "Review the last commit"',
  "uwf list",
  "uwf help exit-codes",
];

const AGENT_OPTION = {
  flags: "--agent <alias>",
  description: "agent for roles that name none (an alias, or scripted:FILE)",
} as const;
const TIMEOUT_OPTION = {
  flags: "--timeout <seconds>",
  description: "agent timeout, over a role's timeout: and the agent's own",
  parse: parseTimeoutSeconds,
} as const;
const PROMPT_OPTION = { flags: "-p, --prompt <text>", description: "the task (- reads stdin)" } as const;
const PROMPT_FILE_OPTION = {
  flags: "--prompt-file <file>",
  description: "the task from a file (- reads stdin)",
  completes: "file",
} as const;
const START_OPTIONS = {
  prompt: PROMPT_OPTION,
  promptFile: PROMPT_FILE_OPTION,
  cwd: { flags: "--cwd <dir>", description: "where the thread's agents run (default: here)", completes: "directory" },
  input: {
    flags: "--input <key=value>",
    description: "a start input (repeatable; the value is read as YAML)",
    parse: collect,
  },
  inputs: {
    flags: "--inputs <file>",
    description: "start inputs from a YAML or JSON map (- reads stdin)",
    completes: "file",
  },
} as const;

/** A thread's limits (its budget), on `start`, `run`, `fork` and `resume`: each beats the workflow's and config's. */
const BUDGET_OPTIONS = {
  maxSteps: {
    flags: "--max-steps <n>",
    description: "budget: the thread suspends (exit 20) before a step past its N-th (default 100; 0: no limit)",
    parse: parseNonNegativeInteger,
  },
  maxTokens: {
    flags: "--max-tokens <n>",
    description: "budget: no step starts once the thread's agents used N tokens",
    parse: parsePositiveInteger,
  },
  maxCost: {
    flags: "--max-cost <usd>",
    description: "budget: no step starts once the thread's agents cost this many US dollars",
    parse: parsePositiveNumber,
  },
} as const;

const QUEUE_OPTION = {
  flags: "--queue",
  description: "leave the thread to `uwf worker` instead of stepping it here",
} as const;

/**
 * The columns `uwf compare --sort` takes: @uwf/protocol's COMPARE_SORT_KEYS, written out so that the table,
 * which every command line reads, loads no schema (command-table.test.ts checks they agree).
 */
export const COMPARE_SORT_COLUMNS = ["parts", "steps", "cost", "tokens", "duration", "status", "outcome"] as const;

const THREAD_ARGUMENT = { syntax: "<thread>", key: "thread", completes: "thread" } as const;
const WORKFLOW_ARGUMENT = { syntax: "<workflow>", key: "workflow", completes: "workflow" } as const;

export const THREAD_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "start",
    description: "start a thread (prints its id); WORKFLOW is a name, a hash or a YAML file",
    arguments: [WORKFLOW_ARGUMENT],
    options: { ...START_OPTIONS, ...BUDGET_OPTIONS, queue: QUEUE_OPTION },
    examples: [
      'T=$(uwf start review -p "Review the last commit")',
      "uwf start flow.yaml -p task --input pr=42 --max-cost 2 --max-steps 20",
      "uwf start review -p task --queue",
    ],
    json: "startResultSchema",
    load: async () => (await import("./thread/start/start.ts")).startCommand,
  }),
  defineCommand({
    name: "step",
    description: "run the thread's next step(s); several threads (- reads ids from stdin) make a batch",
    arguments: [{ syntax: "<thread...>", key: "threads", completes: "thread" }],
    options: {
      steps: {
        flags: "-n, --steps <n>",
        description: "run up to N steps (of each thread)",
        parse: parsePositiveInteger,
      },
      all: { flags: "--all", description: "run until the thread ends or suspends" },
      agent: AGENT_OPTION,
      timeout: TIMEOUT_OPTION,
      parallel: {
        flags: "--parallel <k>",
        description: "step up to K threads at once (default 1), or K branches of a waiting parent (default 4)",
        parse: parsePositiveInteger,
      },
      batchMaxCost: {
        flags: "--batch-max-cost <usd>",
        description: "start no more steps once the batch has spent this many dollars (exit 20)",
        parse: parsePositiveNumber,
      },
    },
    examples: [
      "uwf step 01J9 --all",
      "uwf step 01J9 01JA 01JB --all --parallel 2",
      "uwf step - --all --parallel 4 --batch-max-cost 5 < ids.txt",
    ],
    json: "stepResultSchema, or stepBatchResultSchema for a batch",
    load: async () => (await import("./thread/step/step.ts")).stepThreadsCommand,
  }),
  defineCommand({
    name: "run",
    description: "start a thread and step it until it ends or suspends (--queue: leave it to a worker)",
    arguments: [WORKFLOW_ARGUMENT],
    options: {
      ...START_OPTIONS,
      ...BUDGET_OPTIONS,
      agent: AGENT_OPTION,
      timeout: TIMEOUT_OPTION,
      queue: QUEUE_OPTION,
    },
    examples: [
      'uwf run review -p "Review the last commit"',
      "uwf run flow.yaml -p task --max-steps 5 --json",
      'T=$(uwf run review -p task --queue) && uwf wait "$T"',
    ],
    json: "stepResultSchema, or startResultSchema with --queue",
    load: async () => (await import("./thread/step/run.ts")).runCommand,
  }),
  defineCommand({
    name: "fork",
    description: "a new thread from any start or step node, or from a thread's head",
    arguments: [{ syntax: "<thread-or-hash>", key: "reference", completes: "thread" }],
    options: {
      from: {
        flags: "--from <thread>",
        description: "the thread a node address is forked from (default: found from the address)",
        completes: "thread",
      },
      output: {
        flags: "--output <file>",
        description:
          "replace the head step's reply with this file's (a counterfactual; - reads stdin); a folder: one fork per file",
        completes: "file",
      },
      count: { flags: "--count <n>", description: "make N forks (ids one per line)", parse: parsePositiveInteger },
      maxForks: {
        flags: "--max-forks <n>",
        description: "make at most N forks in this command (default 1000)",
        parse: parsePositiveInteger,
      },
      ...BUDGET_OPTIONS,
      queue: { flags: "--queue", description: "put the forks in the queue for `uwf worker`" },
      workflow: {
        flags: "--workflow <file-or-name>",
        description: "continue on another workflow version: the next step is routed by its graph",
        completes: "workflow",
      },
    },
    examples: [
      "uwf fork 01J9 --count 5 | uwf step - --all --parallel 5",
      "uwf fork 7QK2M9XH3DP4A --output better-reply.md",
      "uwf fork 7QK2M9XH3DP4A --workflow review.yaml",
    ],
    json: "forkResultSchema, or forksResultSchema with --count or --output DIR",
    load: async () => (await import("./thread/forks/fork.ts")).forkCommand,
  }),
  defineCommand({
    name: "list",
    description: "threads, newest first",
    options: {
      status: {
        flags: "--status <status>",
        description: "active, waiting, suspended, ended, cancelled or failed",
        completes: ["active", "waiting", "suspended", "ended", "cancelled", "failed"],
      },
      outcome: {
        flags: "--outcome <status>",
        description: "only ended threads whose ending reply's $status is this (see OUTCOME)",
      },
      workflow: { flags: "--workflow <name>", description: "only threads of this workflow", completes: "workflow" },
      schedule: { flags: "--schedule <name>", description: "only threads this schedule started" },
      limit: {
        flags: "--limit <n>",
        description: "at most N threads (default 30; 0 for all)",
        parse: parseNonNegativeInteger,
      },
      offset: { flags: "--offset <n>", description: "skip the first N", parse: parseNonNegativeInteger },
      forksOf: { flags: "--forks-of <thread>", description: "only the forks of this thread", completes: "thread" },
      recursive: { flags: "--recursive", description: "with --forks-of: their forks too, at any depth" },
      wide: { flags: "--wide", description: "every column, however wide the terminal (else the table fits it)" },
      running: {
        flags: "--running",
        description: "only threads being stepped now, with who holds each (host, pid) since and until when",
      },
      explorations: {
        flags: "--explorations",
        description: "also the re-runs `uwf explore` made (left out otherwise)",
      },
    },
    examples: [
      "uwf list --status failed --limit 0",
      "uwf list --outcome approved",
      "uwf list --forks-of 01J9 --recursive --json",
    ],
    json: "listResultSchema",
    load: async () => (await import("./thread/view/list.ts")).listCommand,
  }),
  defineCommand({
    name: "show",
    description: "a thread's record, or any node expanded (a step with its output, body and agent run)",
    arguments: [{ syntax: "<thread-or-hash>", key: "reference", completes: "thread" }],
    options: {
      prompt: { flags: "--prompt", description: "print the prompt sent to the agent" },
      reply: { flags: "--reply", description: "print the agent's raw reply" },
    },
    examples: ["uwf show 01J9", "uwf show 7QK2M9XH3DP4A", "uwf show 7QK2M9XH3DP4A --reply"],
    json: "shownThreadSchema, expandedNodeSchema or showTextResultSchema",
    load: async () => (await import("./thread/view/show.ts")).showCommand,
  }),
  defineCommand({
    name: "log",
    description: "a thread's steps",
    arguments: [THREAD_ARGUMENT],
    options: {
      follow: {
        flags: "-f, --follow",
        description: "then each new step as any process records it, until the thread ends (exit 10) or suspends (20)",
      },
      addresses: {
        flags: "--addresses",
        description: "print only the steps' addresses, oldest first, one a line (S=$(uwf log T --addresses | head -1))",
      },
    },
    examples: ["uwf log 01J9 --json", "uwf log 01J9 --follow --jsonl", "uwf log 01J9 --addresses | head -1"],
    json: "logResultSchema, or stepResultSchema with --follow",
    load: async () => (await import("./thread/view/log.ts")).logCommand,
  }),
  defineCommand({
    name: "read",
    description: "a thread as a markdown transcript (through $PAGER on a terminal it overflows)",
    arguments: [THREAD_ARGUMENT],
    options: {
      quota: {
        flags: "--quota <chars>",
        description: "keep the newest steps within this many characters",
        parse: parsePositiveInteger,
      },
      pager: { flags: "--no-pager", description: "print it, even when it is longer than the terminal's screen" },
    },
    examples: ["uwf read 01J9", "uwf read 01J9 --quota 8000 --no-pager", "PAGER=more uwf read 01J9"],
    json: "readResultSchema",
    load: async () => (await import("./thread/view/read.ts")).readCommand,
  }),
  defineCommand({
    name: "diff",
    description: "compare two threads (or two step or start nodes) from their last common step",
    arguments: [
      { syntax: "<a>", key: "left", completes: "thread" },
      { syntax: "<b>", key: "right", completes: "thread" },
    ],
    options: { bodies: { flags: "--bodies", description: "also show a unified diff of each pair of step bodies" } },
    examples: ["uwf diff 01J9 01JA", "uwf diff 01J9 01JA --bodies", "uwf diff 01J9 4M2QK8D1V0X7Z --json"],
    json: "diffResultSchema",
    load: async () => (await import("./thread/forks/diff.ts")).diffCommand,
  }),
  defineCommand({
    name: "compare",
    description:
      "a fork family side by side: each member's outcome, own steps, cost, time and the step where it parts from the original",
    arguments: [{ syntax: "<thread-or-hash>", key: "reference", completes: "thread" }],
    options: {
      direct: {
        flags: "--direct",
        description: "only the thread's own forks (or the forks made at the node), not forks of forks",
      },
      sort: {
        flags: "--sort <column>",
        description: `order the forks by ${COMPARE_SORT_COLUMNS.join(", ")} (the original stays first)`,
        completes: COMPARE_SORT_COLUMNS,
      },
      wide: { flags: "--wide", description: "every column, however wide the terminal" },
    },
    examples: ["uwf compare 01J9", "uwf compare 7QK2M9XH3DP4A --sort cost", "uwf compare 01J9 --json"],
    json: "compareResultSchema",
    load: async () => (await import("./thread/forks/compare.ts")).compareCommand,
  }),
  defineCommand({
    name: "tree",
    description: "a thread's family: its root original and every fork, under the step it branched at",
    arguments: [THREAD_ARGUMENT],
    options: {
      mermaid: { flags: "--mermaid", description: "print a Mermaid flowchart of the tree" },
      explorations: {
        flags: "--explorations",
        description: "also the re-runs `uwf explore` made (left out otherwise)",
      },
    },
    examples: ["uwf tree 01J9", "uwf tree 01J9 --mermaid", "uwf tree 01J9 --json"],
    json: "treeResultSchema",
    load: async () => (await import("./thread/forks/tree.ts")).treeCommand,
  }),
  defineCommand({
    name: "resume",
    description:
      "answer a suspended thread, raise the limits of one its budget suspended, continue an ended one, or retry a failed one",
    arguments: [THREAD_ARGUMENT],
    options: {
      prompt: { flags: "-p, --prompt <answer>", description: "the answer or new instruction (- reads stdin)" },
      promptFile: { ...PROMPT_FILE_OPTION, description: "the answer from a file (- reads stdin)" },
      answer: {
        flags: "--answer <fields>",
        description:
          "the answer a role with `answer:` needs, as YAML or JSON: inline, a file, or - (stdin); checked before anything runs",
      },
      ...BUDGET_OPTIONS,
      all: { flags: "--all", description: "then step on until the thread ends or suspends, as `run` does" },
      agent: AGENT_OPTION,
      timeout: TIMEOUT_OPTION,
      queue: { flags: "--queue", description: "a failed thread: make it active and leave it to a worker" },
    },
    examples: [
      'uwf resume 01J9 -p "Yes, drop the old API" --all',
      `uwf resume 01J9 --answer '{"approved": true, "comment": "ship it"}'`,
      "uwf resume 01J9 --max-cost 5",
    ],
    json: "stepResultSchema, or shownThreadSchema with --queue",
    load: async () => (await import("./thread/step/resume.ts")).resumeCommand,
  }),
  defineCommand({
    name: "queue",
    description: "leave an active (or failed) thread to `uwf worker`: it is queued for the next worker to claim",
    arguments: [THREAD_ARGUMENT],
    examples: ["uwf queue 01J9", 'uwf queue "$T" && uwf worker --once'],
    json: "shownThreadSchema",
    load: async () => (await import("./thread/lifecycle/queue.ts")).queueCommand,
  }),
  defineCommand({
    name: "wait",
    description:
      "wait until each thread ends, suspends, fails or is cancelled; exit 0 when all ended, 20 suspended, 1 failed",
    arguments: [{ syntax: "<thread...>", key: "threads", completes: "thread" }],
    options: {
      timeout: {
        flags: "--timeout <seconds>",
        description: "give up after this long (exit 75)",
        parse: parseTimeoutSeconds,
      },
    },
    examples: ['uwf wait "$T"', "uwf wait 01J9 01JA --timeout 600 --json"],
    json: "waitResultSchema",
    load: async () => (await import("./thread/lifecycle/wait.ts")).waitCommand,
  }),
  defineCommand({
    name: "cancel",
    description: "stop a thread for good, a running step of it too (it can still be forked)",
    arguments: [THREAD_ARGUMENT],
    options: {
      wait: {
        flags: "--no-wait",
        description: "only ask the process stepping the thread to stop and cancel it; do not wait for it",
      },
      timeout: {
        flags: "--timeout <seconds>",
        description: "wait this long for a running step to stop (default 75; then exit 75)",
        parse: parseTimeoutSeconds,
      },
    },
    examples: ["uwf cancel 01J9", "uwf cancel 01J9 --no-wait"],
    json: "shownThreadSchema",
    load: async () => (await import("./thread/lifecycle/cancel.ts")).cancelCommand,
  }),
  defineCommand({
    name: "delete",
    description: "remove thread records (asks first; --yes in scripts); the next cas gc collects their nodes",
    arguments: [{ syntax: "<thread...>", key: "threads", completes: "thread" }],
    options: { yes: { flags: "-y, --yes", description: "delete without asking" } },
    examples: ["uwf delete 01J9", 'uwf delete "$T" --yes'],
    json: "deleteResultSchema",
    load: async () => (await import("./thread/lifecycle/delete.ts")).deleteCommand,
  }),
];

const WORKFLOW_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "add",
    description: "register a workflow file, - for stdin (prints its name and hash)",
    arguments: [{ syntax: "<file>", key: "file", completes: "file" }],
    examples: ["uwf workflow add review.yaml"],
    json: "workflowAddResultSchema",
    load: async () => (await import("./workflow/add.ts")).workflowAddCommand,
  }),
  defineCommand({
    name: "validate",
    description: "check a workflow file (- for stdin); prints every problem, exit 1 when invalid",
    arguments: [{ syntax: "<file>", key: "file", completes: "file" }],
    examples: ["uwf workflow validate review.yaml"],
    json: "workflowValidateResultSchema",
    load: async () => (await import("./workflow/validate.ts")).workflowValidateCommand,
  }),
  defineCommand({
    name: "show",
    description: "show a workflow by name, hash or file",
    arguments: [{ syntax: "<workflow>", key: "reference", completes: "workflow" }],
    options: { mermaid: { flags: "--mermaid", description: "print a Mermaid flowchart of the graph" } },
    examples: ["uwf workflow show review", "uwf workflow show review.yaml --mermaid"],
    json: "workflowShowResultSchema",
    load: async () => (await import("./workflow/show.ts")).workflowShowCommand,
  }),
  defineCommand({
    name: "new",
    description:
      "write NAME.yaml, a starter workflow (a model role, a shell check, a fan-out, a person's approval), and NAME.scenario.yaml, which runs it offline",
    arguments: [{ syntax: "<name>", key: "name" }],
    examples: ["uwf workflow new ship", "uwf run ship.yaml -p 'Add a flag' --agent scripted:ship.scenario.yaml"],
    json: "workflowNewResultSchema",
    load: async () => (await import("./workflow/new.ts")).workflowNewCommand,
  }),
  defineCommand({
    name: "list",
    description: "registered workflows and those in the project's .uwf/workflows/",
    options: {
      threads: {
        flags: "--threads",
        description: "also the versions the newest 1000 threads run that the registry no longer names",
      },
    },
    examples: ["uwf workflow list", "uwf workflow list --threads"],
    json: "workflowListResultSchema",
    load: async () => (await import("./workflow/list.ts")).workflowListCommand,
  }),
];

const ADDRESS_ARGUMENT = { syntax: "<address>", key: "address" } as const;

const CAS_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "get",
    description: "print a node's canonical JSON",
    arguments: [ADDRESS_ARGUMENT],
    examples: ["uwf cas get 7QK2M9XH3DP4A"],
    json: "the node itself",
    load: async () => (await import("./cas/get.ts")).casGetCommand,
  }),
  defineCommand({
    name: "put",
    description: "store a JSON document from FILE or stdin; prints its address",
    arguments: [{ syntax: "[file]", key: "file", completes: "file" }],
    examples: ["uwf cas put node.json", "echo '{\"a\":1}' | uwf cas put"],
    json: "casPutResultSchema",
    load: async () => (await import("./cas/put.ts")).casPutCommand,
  }),
  defineCommand({
    name: "has",
    description: "exit 0 when the node is stored, 1 when not",
    arguments: [ADDRESS_ARGUMENT],
    examples: ["uwf cas has 7QK2M9XH3DP4A && echo stored"],
    json: "casHasResultSchema",
    load: async () => (await import("./cas/has.ts")).casHasCommand,
  }),
  defineCommand({
    name: "refs",
    description: "the addresses a node points at",
    arguments: [ADDRESS_ARGUMENT],
    examples: ["uwf cas refs 7QK2M9XH3DP4A"],
    json: "casRefsResultSchema",
    load: async () => (await import("./cas/refs.ts")).casRefsCommand,
  }),
  defineCommand({
    name: "walk",
    description: "every node reachable from the given ones",
    arguments: [{ syntax: "<address...>", key: "addresses" }],
    examples: ["uwf cas walk 7QK2M9XH3DP4A"],
    json: "casWalkResultSchema",
    load: async () => (await import("./cas/walk.ts")).casWalkCommand,
  }),
  defineCommand({
    name: "verify",
    description: "re-hash every object, check what threads reach and every chain index",
    examples: ["uwf cas verify", "uwf cas verify --json"],
    json: "verifyReportSchema",
    load: async () => withoutOptions((await import("./cas/verify.ts")).casVerifyCommand),
  }),
  defineCommand({
    name: "gc",
    description: "delete objects unreachable from threads and the registry, drop damaged chain indexes",
    options: {
      dryRun: { flags: "--dry-run", description: "only report what would be deleted" },
      grace: {
        flags: "--grace <seconds>",
        description: "keep objects younger than this (default 3600, at least 60, at most 100 years)",
        parse: parseGcGraceSeconds,
      },
      force: {
        flags: "--force",
        description: "delete even the nodes of threads no record names (gc refuses otherwise: see cas recover)",
      },
    },
    examples: ["uwf cas gc --dry-run", "uwf cas gc --grace 600"],
    json: "gcReportSchema",
    load: async () => (await import("./cas/gc.ts")).casGcCommand,
  }),
  defineCommand({
    name: "recover",
    description: "rebuild lost thread records from the store's chains (moving a damaged refs.db aside)",
    examples: ["uwf cas recover"],
    json: "casRecoverResultSchema",
    load: async () => withoutOptions((await import("./cas/recover.ts")).casRecoverCommand),
  }),
];

const CONFIG_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "get",
    description: "print one value (dotted key, e.g. agents.claude)",
    arguments: [{ syntax: "<key>", key: "key" }],
    examples: ["uwf config get defaultModel", "uwf config get agents.claude"],
    json: "configValueResultSchema",
    load: async () => (await import("./config/get.ts")).configGetCommand,
  }),
  defineCommand({
    name: "set",
    description: "set one value (parsed as YAML); an unknown agent, model or provider is refused",
    arguments: [
      { syntax: "<key>", key: "key" },
      { syntax: "<value>", key: "value" },
    ],
    examples: [
      "uwf config set timeout 600",
      "uwf config set agents.fast '{ builtin: anthropic, model: claude-haiku-4-5 }'",
      "uwf config set defaultAgent fast",
    ],
    json: "configValueResultSchema",
    load: async () => (await import("./config/set.ts")).configSetCommand,
  }),
  defineCommand({
    name: "unset",
    description: "remove one value, so its default applies again",
    arguments: [{ syntax: "<key>", key: "key" }],
    examples: ["uwf config unset defaultModel", "uwf config unset agentOverrides.review.writer"],
    json: "configValueResultSchema",
    load: async () => (await import("./config/unset.ts")).configUnsetCommand,
  }),
  defineCommand({
    name: "list",
    description: "the whole configuration",
    examples: ["uwf config list"],
    json: "configListResultSchema",
    load: async () => withoutOptions((await import("./config/list.ts")).configListCommand),
  }),
];

const STORE_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "copy",
    description: "copy the home's store (or --from another) into another, e.g. a PostgreSQL server",
    options: {
      to: {
        flags: "--to <store>",
        description: "where to: postgres://USER:PASSWORD@HOST/DATABASE[?schema=S], or file (the home)",
        required: true,
      },
      from: { flags: "--from <store>", description: "where from: file (the home, the default) or a URL" },
    },
    examples: [
      "uwf store copy --to postgres://uwf@db.internal/uwf",
      "uwf store copy --from postgres://uwf@db.internal/uwf --to file",
    ],
    json: "storeCopyResultSchema",
    load: async () => (await import("./store/copy.ts")).storeCopyCommand,
  }),
];

/** The top level, in the order `uwf --help` lists it. */
/** How `uwf eval`, `eval show` and `eval rescore` show a report and gate on it. */
const EVAL_OUTPUT_OPTIONS = {
  baseline: {
    flags: "--baseline <variant|report>",
    description: "compare with a variant of this report, or with a stored report (id or prefix)",
  },
  markdown: { flags: "--markdown", description: "print the report as Markdown, to paste into a pull request" },
  html: {
    flags: "--html <file>",
    description: "also write the report as one self-contained HTML page",
    completes: "file",
  },
} as const;
const EVAL_GATE_OPTIONS = {
  minPassRate: {
    flags: "--min-pass-rate <rate>",
    description: "gate: exit 3 unless the pass rate over all samples is at least this (0 to 1)",
    parse: parseRate,
  },
  minCasePassRate: {
    flags: "--min-case-pass-rate <rate>",
    description: "gate: exit 3 unless every case's pass rate is at least this",
    parse: parseRate,
  },
  passK: {
    flags: "--pass-k <k>",
    description: "gate: exit 3 unless every case passed all of its first K repeats",
    parse: parsePositiveInteger,
  },
  allowErrors: {
    flags: "--allow-errors",
    description: "count errored samples and runs that did not start as failing, instead of exiting 1",
  },
} as const;
const ASSERT_OPTION = {
  flags: "--assert <assertion>",
  description:
    "score with NAME=JSONATA, outcome: STATUS, status: STATUS, command: CMD, judge: WORKFLOW[#ROLE] (repeatable)",
  parse: collect,
} as const;
const REPORT_ARGUMENT = { syntax: "<report>", key: "report" } as const;

const EVAL_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "run",
    isDefault: true,
    description: "(the default) score stored threads, or run a suite and score its threads; store and print the report",
    arguments: [{ syntax: "[thread...]", key: "threads", completes: "thread" }],
    options: {
      forksOf: { flags: "--forks-of <thread>", description: "score the forks of this thread", completes: "thread" },
      recursive: { flags: "--recursive", description: "with --forks-of: their forks too, at any depth" },
      workflow: { flags: "--workflow <name>", description: "only threads of this workflow", completes: "workflow" },
      status: {
        flags: "--status <status>",
        description: "only threads in this status",
        completes: ["active", "waiting", "suspended", "ended", "cancelled", "failed"],
      },
      assert: ASSERT_OPTION,
      suite: {
        flags: "--suite <file>",
        description: "run the suite's cases × variants × repeats, then score them",
        completes: "file",
      },
      name: { flags: "--name <name>", description: "the report's name (default: the suite's, or the selection)" },
      parallel: {
        flags: "--parallel <k>",
        description: "with --suite: run up to K threads at once (default 4)",
        parse: parsePositiveInteger,
      },
      queue: { flags: "--queue", description: "with --suite: queue the threads for workers and wait for them" },
      fresh: { flags: "--fresh", description: "with --suite: run every thread anew instead of reusing finished ones" },
      count: {
        flags: "--count <n>",
        description: "with a suite's from: NODE, forks per variant",
        parse: parsePositiveInteger,
      },
      maxCost: {
        flags: "--max-cost <usd>",
        description: "with --suite: start no step once the suite's threads spent this",
        parse: parsePositiveNumber,
      },
      maxRuns: {
        flags: "--max-runs <n>",
        description: "with --suite: start at most N runs in this command (default 1000)",
        parse: parsePositiveInteger,
      },
      agent: AGENT_OPTION,
      timeout: TIMEOUT_OPTION,
      ...EVAL_GATE_OPTIONS,
      ...EVAL_OUTPUT_OPTIONS,
    },
    examples: [
      "uwf eval --forks-of 01J9 --assert 'outcome: approved'",
      "uwf eval --suite suite.yaml --min-pass-rate 0.8 --html report.html",
      "uwf eval 01J9 01JA --assert 'cheap=usage.costUsd < 0.5' --json",
    ],
    json: "evalResultSchema",
    load: async () => (await import("./eval/eval-run.ts")).evalRunCommand,
  }),
  defineCommand({
    name: "show",
    description: "print a stored report; exits as its gate says",
    arguments: [REPORT_ARGUMENT],
    options: { ...EVAL_OUTPUT_OPTIONS },
    examples: ["uwf eval show 01JB", "uwf eval show 01JB --markdown", "uwf eval show 01JB --baseline v1"],
    json: "evalResultSchema",
    load: async () => (await import("./eval/eval-show.ts")).evalShowCommand,
  }),
  defineCommand({
    name: "list",
    description: "stored reports, newest first",
    options: {
      name: { flags: "--name <name>", description: "only the reports of this suite" },
      limit: { flags: "--limit <n>", description: "at most N (default 30; 0: all)", parse: parseNonNegativeInteger },
      offset: { flags: "--offset <n>", description: "skip the first N", parse: parseNonNegativeInteger },
    },
    examples: ["uwf eval list", "uwf eval list --name login-fix --json"],
    json: "evalListResultSchema",
    load: async () => (await import("./eval/eval-list.ts")).evalListCommand,
  }),
  defineCommand({
    name: "diff",
    description: "compare two stored reports: the second against the first",
    arguments: [
      { syntax: "<baseline>", key: "baseline" },
      { syntax: "<current>", key: "current" },
    ],
    examples: ["uwf eval diff 01JB 01JC", "uwf eval diff 01JB 01JC --json"],
    json: "evalDiffResultSchema",
    load: async () => (await import("./eval/eval-diff.ts")).evalDiffCommand,
  }),
  defineCommand({
    name: "rescore",
    description: "score a report's threads again with new assertions; nothing is re-run but judges",
    arguments: [REPORT_ARGUMENT],
    options: {
      assert: ASSERT_OPTION,
      replace: { flags: "--replace", description: "score only the --assert given, dropping the report's own" },
      agent: AGENT_OPTION,
      timeout: TIMEOUT_OPTION,
      ...EVAL_GATE_OPTIONS,
      ...EVAL_OUTPUT_OPTIONS,
    },
    examples: [
      "uwf eval rescore 01JB --assert 'short=totals.steps < 5'",
      "uwf eval rescore 01JB --replace --assert 'outcome: approved'",
    ],
    json: "evalResultSchema",
    load: async () => (await import("./eval/eval-rescore.ts")).evalRescoreCommand,
  }),
];

const EXPLORE_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "run",
    isDefault: true,
    description:
      "(the default) re-run a thread from each of its steps, score the re-runs, and show how each step moved the pass rate",
    arguments: [{ syntax: "<thread>", key: "thread", completes: "thread" }],
    options: {
      steps: { flags: "--steps <list>", description: "the steps to resample: 3, 2..7 or 1,4..6 (default all)" },
      samples: { flags: "--samples <n>", description: "re-runs per step (default 5)", parse: parsePositiveInteger },
      assert: ASSERT_OPTION,
      suite: { flags: "--suite <file>", description: "score with this suite's assertions too", completes: "file" },
      agent: AGENT_OPTION,
      timeout: TIMEOUT_OPTION,
      parallel: {
        flags: "--parallel <k>",
        description: "run up to K re-runs at once (default 4)",
        parse: parsePositiveInteger,
      },
      maxCost: {
        flags: "--max-cost <usd>",
        description: "start no step once the exploration's re-runs spent this",
        parse: parsePositiveNumber,
      },
      maxForks: {
        flags: "--max-forks <n>",
        description: "the most re-runs (steps × samples) it may make (default 1000, as fork --count)",
        parse: parsePositiveInteger,
      },
      maxSteps: { flags: "--max-steps <n>", description: "each re-run's step limit", parse: parsePositiveInteger },
      maxTokens: { flags: "--max-tokens <n>", description: "each re-run's token limit", parse: parsePositiveInteger },
      forkMaxCost: {
        flags: "--fork-max-cost <usd>",
        description: "each re-run's cost limit",
        parse: parsePositiveNumber,
      },
      reuse: {
        flags: "--reuse <report>",
        description: "score (and finish) the re-runs of an earlier exploration of the thread instead of new ones",
      },
      name: { flags: "--name <name>", description: "the report's name (default: explore THREAD)" },
      minPassRate: {
        flags: "--min-pass-rate <rate>",
        description: "gate: exit 3 unless the re-runs from the first explored step pass at least this often",
        parse: parseRate,
      },
      allowErrors: { flags: "--allow-errors", description: "do not exit 1 for re-runs that errored or were not run" },
      html: {
        flags: "--html <file>",
        description: "also write the report as one self-contained HTML page",
        completes: "file",
      },
    },
    examples: [
      "uwf explore 01J9 --assert 'outcome: approved'",
      "uwf explore 01J9 --steps 2..7 --samples 10 --max-cost 5 --html explore.html",
      "uwf explore 01J9 --reuse 01JB --assert 'short=totals.steps < 8'",
    ],
    json: "exploreResultSchema",
    load: async () => (await import("./explore/explore-run.ts")).exploreRunCommand,
  }),
  defineCommand({
    name: "show",
    description: "print a stored exploration; exits as its gate says",
    arguments: [REPORT_ARGUMENT],
    options: {
      allowErrors: { flags: "--allow-errors", description: "do not exit 1 for re-runs that errored or were not run" },
      html: {
        flags: "--html <file>",
        description: "also write the report as one self-contained HTML page",
        completes: "file",
      },
    },
    examples: ["uwf explore show 01JB", "uwf explore show 01JB --html explore.html"],
    json: "exploreResultSchema",
    load: async () => (await import("./explore/explore-show.ts")).exploreShowCommand,
  }),
  defineCommand({
    name: "rescore",
    description: "score an exploration's re-runs again with new assertions; nothing is re-run but judges",
    arguments: [REPORT_ARGUMENT],
    options: {
      assert: ASSERT_OPTION,
      replace: { flags: "--replace", description: "score only the --assert given, dropping the report's own" },
      agent: AGENT_OPTION,
      timeout: TIMEOUT_OPTION,
      name: { flags: "--name <name>", description: "the new report's name (default: the old one's)" },
      minPassRate: {
        flags: "--min-pass-rate <rate>",
        description: "gate: exit 3 unless the re-runs from the first explored step pass at least this often",
        parse: parseRate,
      },
      allowErrors: { flags: "--allow-errors", description: "do not exit 1 for re-runs that errored or were not run" },
      html: {
        flags: "--html <file>",
        description: "also write the report as one self-contained HTML page",
        completes: "file",
      },
    },
    examples: ["uwf explore rescore 01JB --assert 'outcome: approved'"],
    json: "exploreResultSchema",
    load: async () => (await import("./explore/explore-rescore.ts")).exploreRescoreCommand,
  }),
];

const SCHEDULE_ARGUMENT = { syntax: "<name>", key: "name" } as const;

const SCHEDULE_COMMANDS: readonly CommandEntry[] = [
  defineCommand({
    name: "add",
    description: "start threads of WORKFLOW on a cron schedule (fired by `uwf worker` or `uwf tick`)",
    arguments: [SCHEDULE_ARGUMENT, WORKFLOW_ARGUMENT],
    options: {
      cron: {
        flags: "--cron <expr>",
        description: "when: five fields (minute hour day month weekday), or six with seconds first",
      },
      tz: { flags: "--tz <zone>", description: "the cron's IANA time zone, such as Europe/Berlin (default UTC)" },
      prompt: { flags: "-p, --prompt <text>", description: "each thread's task (- reads stdin)" },
      promptFile: PROMPT_FILE_OPTION,
      input: START_OPTIONS.input,
      overlap: {
        flags: "--overlap <policy>",
        description: "while its last thread runs: skip (default), allow, or buffer-one (start one once it stops)",
        completes: ["skip", "allow", "buffer-one"],
      },
      catchUp: {
        flags: "--catch-up <duration>",
        description: "run fires missed by up to this long (2h); default: only the latest missed fire runs",
      },
      queue: {
        flags: "--queue",
        description: "leave its threads to `uwf worker` even when `uwf tick` fires it",
      },
    },
    examples: [
      'uwf schedule add standup review --cron "0 9 * * 1-5" --tz Europe/Berlin -p "Review yesterday\'s commits"',
      'uwf schedule add nightly flow.yaml --cron "0 2 * * *" --input branch=main --overlap skip --catch-up 6h',
    ],
    json: "scheduleShowResultSchema",
    load: async () => (await import("./schedule/add.ts")).scheduleAddCommand,
  }),
  defineCommand({
    name: "list",
    description: "every schedule: its cron, next fire and last thread",
    examples: ["uwf schedule list", "uwf schedule list --json"],
    json: "scheduleListResultSchema",
    load: async () => (await import("./schedule/list.ts")).scheduleListCommand,
  }),
  defineCommand({
    name: "show",
    description: "a schedule and the threads it started",
    arguments: [SCHEDULE_ARGUMENT],
    examples: ["uwf schedule show nightly"],
    json: "scheduleShowResultSchema",
    load: async () => (await import("./schedule/show.ts")).scheduleShowCommand,
  }),
  defineCommand({
    name: "pause",
    description: "stop a schedule firing until it is resumed",
    arguments: [SCHEDULE_ARGUMENT],
    examples: ["uwf schedule pause nightly"],
    json: "scheduleShowResultSchema",
    load: async () => (await import("./schedule/show.ts")).schedulePauseCommand,
  }),
  defineCommand({
    name: "resume",
    description: "fire a paused schedule again, from its next cron time (missed fires are not caught up)",
    arguments: [SCHEDULE_ARGUMENT],
    examples: ["uwf schedule resume nightly"],
    json: "scheduleShowResultSchema",
    load: async () => (await import("./schedule/show.ts")).scheduleResumeCommand,
  }),
  defineCommand({
    name: "trigger",
    description: "fire a schedule now, outside its cron, and run its thread here (unless queued)",
    arguments: [SCHEDULE_ARGUMENT],
    options: {
      queue: { flags: "--queue", description: "leave the thread to `uwf worker`" },
      agent: AGENT_OPTION,
      timeout: TIMEOUT_OPTION,
    },
    examples: ["uwf schedule trigger nightly", "uwf schedule trigger nightly --queue --json"],
    json: "tickResultSchema",
    load: async () => (await import("./schedule/trigger.ts")).scheduleTriggerCommand,
  }),
  defineCommand({
    name: "rm",
    description: "remove a schedule (the threads it started stay)",
    arguments: [SCHEDULE_ARGUMENT],
    examples: ["uwf schedule rm nightly"],
    json: "scheduleRemoveResultSchema",
    load: async () => (await import("./schedule/show.ts")).scheduleRemoveCommand,
  }),
];

export const COMMAND_TABLE: CommandTable = [
  defineCommand({
    name: "init",
    description: "create a .uwf/ home in the current directory",
    examples: ["uwf init"],
    json: "initResultSchema",
    load: async () => withoutOptions((await import("./init.ts")).initCommand),
  }),
  {
    name: "workflow",
    description: "add, validate, show and list workflows",
    commands: WORKFLOW_COMMANDS,
    examples: ["uwf workflow add review.yaml", "uwf workflow list"],
  },
  ...THREAD_COMMANDS,
  {
    name: "thread",
    description: "thread commands (same as the top-level ones)",
    commands: THREAD_COMMANDS,
    examples: ["uwf thread list", "uwf thread step 01J9"],
  },
  defineCommand({
    name: "worker",
    description: "step queued threads (start --queue, run --queue) until stopped; SIGTERM drains it",
    options: {
      concurrency: {
        flags: "--concurrency <n>",
        description: "step up to N threads at once (default 1)",
        parse: parsePositiveInteger,
      },
      workflow: { flags: "--workflow <name>", description: "only threads of this workflow", completes: "workflow" },
      once: { flags: "--once", description: "exit once nothing is left to claim" },
      maxSteps: {
        flags: "--max-steps <n>",
        description: "exit after N steps in all (a retry counts)",
        parse: parsePositiveInteger,
      },
      agent: AGENT_OPTION,
      timeout: TIMEOUT_OPTION,
      grace: {
        flags: "--grace <seconds>",
        description: "after SIGTERM, how long running steps may finish before their agents are stopped (default 30)",
        parse: parseNonNegativeInteger,
      },
      pollMs: {
        flags: "--poll-ms <ms>",
        description: "how often an idle worker looks for threads (default 500, or worker.pollMs)",
        parse: parsePositiveInteger,
      },
      retries: {
        flags: "--retries <n>",
        description:
          "tries of a failing step after the first (default 3, or worker.retries); a role's retries: replace them",
        parse: parseNonNegativeInteger,
      },
      backoffMs: {
        flags: "--backoff-ms <ms>",
        description: "wait before the first retry, doubled for each next (default 1000, or worker.backoffMs)",
        parse: parseNonNegativeInteger,
      },
      schedules: { flags: "--no-schedules", description: "fire no schedules (by default a worker fires those due)" },
    },
    examples: ["uwf worker --concurrency 4", "uwf worker --workflow review --once", "uwf worker --jsonl >> worker.log"],
    json: "workerResultSchema (--jsonl: cliEventSchema)",
    load: async () => (await import("./worker.ts")).workerCommand,
  }),
  {
    name: "schedule",
    description: "start threads on a cron schedule: add, list, show, pause, resume, trigger, rm",
    commands: SCHEDULE_COMMANDS,
    examples: ['uwf schedule add nightly review --cron "0 2 * * *" -p "Review the day"', "uwf schedule list"],
  },
  defineCommand({
    name: "tick",
    description:
      "one round of due work (time out due suspensions, fire due schedules), then exit: for a system cron or CI without a worker",
    options: {
      queue: {
        flags: "--queue",
        description: "leave the threads it starts or routes on to `uwf worker` instead of running them here",
      },
      agent: AGENT_OPTION,
      timeout: TIMEOUT_OPTION,
    },
    examples: ["* * * * * cd /srv/project && uwf tick >> tick.log 2>&1", "uwf tick --json"],
    json: "tickResultSchema",
    load: async () => (await import("./tick.ts")).tickCommand,
  }),
  defineCommand({
    name: "ui",
    description:
      "serve a local web page over the store: threads live, graphs, fork trees, diffs, eval reports, actions",
    options: {
      port: {
        flags: "--port <n>",
        description: "listen on this port (default 7323, or a free one when that is taken; 0: a free one)",
        parse: parseNonNegativeInteger,
      },
      host: {
        flags: "--host <addr>",
        description: "listen on this address (default 127.0.0.1; another than loopback needs --token or --read-only)",
      },
      open: { flags: "--open", description: "open the page in the default browser" },
      readOnly: { flags: "--read-only", description: "serve no actions: nothing can be stepped, forked or cancelled" },
      token: {
        flags: "--token <token>",
        description:
          "the session token, 16+ characters (default: a new random one per start); off loopback every request needs it",
      },
    },
    examples: ["uwf ui", "uwf ui --port 0 --open", "uwf ui --host 0.0.0.0 --read-only"],
    json: "uiStartedEventSchema (--jsonl only: the line printed once it listens; --json is refused)",
    // The command table is handed over rather than imported: each API call runs one of its commands.
    load: async () => {
      const { uiCommand } = await import("./ui/ui.ts");
      return (options: UiCommandOptions, context: CommandContext) => uiCommand(options, context, COMMAND_TABLE);
    },
  }),
  {
    name: "eval",
    description:
      "judge experiments: `uwf eval [thread...]` (= `eval run`; its flags: `uwf eval run --help`) scores threads, fork families and suites; reports are kept",
    commands: EVAL_COMMANDS,
    examples: [
      "uwf eval --forks-of 01J9 --assert 'outcome: approved'",
      "uwf eval --suite suite.yaml --min-pass-rate 0.8",
      "uwf eval list",
    ],
  },
  {
    name: "explore",
    description:
      "where did a run go right or wrong: `uwf explore THREAD` (= `explore run`) re-runs it from each step and scores the re-runs; reports are kept",
    commands: EXPLORE_COMMANDS,
    examples: [
      "uwf explore 01J9 --assert 'outcome: approved'",
      "uwf explore show 01JB --html explore.html",
      "uwf explore rescore 01JB --assert 'outcome: approved'",
    ],
  },
  {
    name: "cas",
    description: "content-addressed store plumbing",
    commands: CAS_COMMANDS,
    examples: ["uwf cas verify", "uwf cas gc --dry-run"],
  },
  {
    name: "store",
    description: "move a store: copy a home into a shared PostgreSQL server",
    commands: STORE_COMMANDS,
    examples: ["uwf store copy --to postgres://uwf@db.internal/uwf"],
  },
  {
    name: "config",
    description: "read and change config.yaml",
    commands: CONFIG_COMMANDS,
    examples: ["uwf config list", "uwf config set defaultModel claude-sonnet-4-5", "uwf config unset defaultModel"],
  },
  defineCommand({
    name: "setup",
    description: "configure a model provider, its API key, the default model and agent (asks on a terminal)",
    options: {
      provider: {
        flags: "--provider <name>",
        description: "provider name in config.yaml (default: the agent's name, anthropic or openai)",
      },
      baseUrl: {
        flags: "--base-url <url>",
        description: "the provider's base URL: a gateway, or an OpenAI-compatible server (…/v1) with --agent openai",
      },
      apiKeyEnv: {
        flags: "--api-key-env <variable>",
        description: "environment variable holding the key (default ANTHROPIC_API_KEY, or OPENAI_API_KEY)",
      },
      apiKey: {
        flags: "--api-key <key>",
        description: "store this key in the home's .env, mode 0600 (- reads it from stdin)",
      },
      model: { flags: "--model <model>", description: "default model: a model id or a models alias" },
      agent: {
        flags: "--agent <agent>",
        description: "default agent: anthropic or openai (built-in; the provider's type), or claude-code",
        completes: ["anthropic", "openai", "claude-code"],
      },
      verify: { flags: "--no-verify", description: "do not check the key with a request" },
    },
    examples: [
      "uwf setup",
      "uwf setup --agent openai --base-url http://localhost:11434/v1 --model qwen3:8b --api-key-env OLLAMA_API_KEY",
      "uwf setup --agent claude-code",
    ],
    load: async () => (await import("./setup/setup.ts")).setupCommand,
  }),
  defineCommand({
    name: "completion",
    description: "print a completion script for bash, zsh or fish",
    arguments: [{ syntax: "<shell>", key: "shell", completes: ["bash", "zsh", "fish"] }],
    examples: ["source <(uwf completion bash)", "source <(uwf completion zsh)", "uwf completion fish | source"],
    json: "completionScriptResultSchema",
    load: async () => (await import("./completion/completion.ts")).completionCommand,
  }),
  defineCommand({
    name: "__complete",
    description: "what the completion scripts call: candidates for the last word",
    arguments: [{ syntax: "[words...]", key: "words" }],
    examples: [],
    json: "completionCandidatesResultSchema",
    hidden: true,
    load: async () => (await import("./completion/complete.ts")).completeCommand(COMMAND_TABLE),
  }),
  defineCommand({
    name: "version",
    description: "uwf's version, the Bun it runs on and the store schema version",
    examples: ["uwf version", "uwf version --json"],
    json: "versionResultSchema",
    load: async () => withoutOptions((await import("./version.ts")).versionCommand),
  }),
  defineCommand({
    name: "help",
    description: "help for a command, or a topic: exit-codes, json",
    arguments: [{ syntax: "[command-or-topic...]", key: "words", completes: "command" }],
    examples: ["uwf help step", "uwf help workflow add", "uwf help exit-codes"],
    json: "helpTopicResultSchema",
    load: async () => (await import("./help/help-topic.ts")).helpTopicCommand(COMMAND_TABLE),
  }),
  {
    name: "trace",
    description: "OpenTelemetry: send stored threads' steps to an OTLP collector as traces (not UWF_TRACE's timings)",
    commands: [
      defineCommand({
        name: "export",
        description:
          "send threads (with their branches) as OTLP/HTTP spans, the same ones OTEL_EXPORTER_OTLP_ENDPOINT exports live",
        arguments: [{ syntax: "[thread...]", key: "threads", completes: "thread" }],
        options: {
          endpoint: {
            flags: "--endpoint <url>",
            description:
              "the collector's OTLP/HTTP endpoint (/v1/traces is added); default OTEL_EXPORTER_OTLP_ENDPOINT",
          },
          forksOf: {
            flags: "--forks-of <thread>",
            description: "this thread and its forks, at any depth",
            completes: "thread",
          },
        },
        examples: [
          "uwf trace export 01J9 --endpoint http://localhost:4318",
          "uwf trace export --forks-of 01J9 --json",
          "uwf list --status ended --json | jq -r '.threads[].id' | uwf trace export -",
        ],
        json: "traceExportResultSchema",
        load: async () => (await import("./trace/export.ts")).traceExportCommand,
      }),
    ],
    examples: ["uwf trace export 01J9 --endpoint http://localhost:4318"],
  },
  {
    name: "scenario",
    description: "recorded threads as scenarios for the scripted agent: export",
    commands: [
      defineCommand({
        name: "export",
        description: "write threads' recorded replies as a scenario that `uwf run --agent scripted:FILE` plays back",
        arguments: [{ syntax: "[thread...]", key: "threads", completes: "thread" }],
        options: {
          forksOf: {
            flags: "--forks-of <thread>",
            description: "this thread and its forks, at any depth",
            completes: "thread",
          },
          output: {
            flags: "-o, --output <file>",
            description: "write the scenario to FILE (JSON if it ends in .json, else YAML) instead of stdout",
            completes: "file",
          },
        },
        examples: [
          "uwf scenario export 01J9 -o review.scenario.yaml",
          "uwf scenario export --forks-of 01J9 -o family.scenario.json",
        ],
        json: "scenarioDocumentSchema, or scenarioExportResultSchema with -o",
        load: async () => (await import("./scenario/export.ts")).scenarioExportCommand,
      }),
    ],
    examples: ["uwf scenario export 01J9 -o review.scenario.yaml"],
  },
  defineCommand({
    name: "replay",
    description:
      "re-route threads' recorded replies through another workflow, running no agent and writing nothing; exit 1 when one diverges",
    arguments: [{ syntax: "[thread...]", key: "threads", completes: "thread" }],
    options: {
      workflow: {
        flags: "--workflow <file-or-name>",
        description: "the workflow to replay through: a file, a registered name or an address",
        required: true,
        completes: "workflow",
      },
      forksOf: {
        flags: "--forks-of <thread>",
        description: "also this thread and its forks, at any depth",
        completes: "thread",
      },
    },
    examples: [
      "uwf replay 01J9 --workflow review.yaml",
      "uwf replay --forks-of 01J9 --workflow review",
      "uwf list --workflow review --limit 0 --json | jq -r '.threads[].id' | uwf replay - --workflow review.yaml",
    ],
    json: "replayResultSchema",
    load: async () => (await import("./replay.ts")).replayCommand,
  }),
  defineCommand({
    name: "mcp",
    description:
      "serve uwf as an MCP server on stdio: start, step, run, show, log, read, list, fork, diff, resume and cancel as tools, threads as resources",
    options: {
      readOnly: {
        flags: "--read-only",
        description: "offer only the tools that read the store: show, log, read, list and diff",
      },
    },
    examples: ["claude mcp add uwf -- uwf mcp", "uwf --store postgres://uwf@db.internal/uwf mcp --read-only"],
    // The command table is handed over rather than imported: each tool call runs one of its commands.
    load: async () => {
      const { mcpCommand } = await import("./mcp/mcp.ts");
      return (options: McpCommandOptions, context: CommandContext) => mcpCommand(options, context, COMMAND_TABLE);
    },
  }),
];
