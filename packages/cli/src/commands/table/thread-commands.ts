import { type CommandEntry, type CommandGroup, defineCommand } from "./define-command.ts";
import {
  parseNonNegativeInteger,
  parsePositiveInteger,
  parsePositiveNumber,
  parseTimeoutSeconds,
} from "./option-value-parsers.ts";
import {
  AGENT_OPTION,
  BUDGET_OPTIONS,
  PROMPT_FILE_OPTION,
  QUEUE_OPTION,
  START_OPTIONS,
  TIMEOUT_OPTION,
  WORKFLOW_ARGUMENT,
} from "./shared-options.ts";

/**
 * The columns `uwf compare --sort` takes: @uwf/protocol's COMPARE_SORT_KEYS, written out so that the table,
 * which every command line reads, loads no schema (command-table.test.ts checks they agree).
 */
export const COMPARE_SORT_COLUMNS = ["parts", "steps", "cost", "tokens", "duration", "status", "outcome"] as const;

const THREAD_ARGUMENT = { syntax: "<thread>", key: "thread", completes: "thread" } as const;

/** The thread commands: at the top level, and again under `uwf thread`. */
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
    load: async () => (await import("../thread/start/start.ts")).startCommand,
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
    load: async () => (await import("../thread/step/step.ts")).stepThreadsCommand,
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
    load: async () => (await import("../thread/step/run.ts")).runCommand,
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
    load: async () => (await import("../thread/forks/fork.ts")).forkCommand,
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
      search: {
        flags: "--search <text>",
        description:
          "only threads whose id, workflow, prompt, roles or field values have words starting with each word",
      },
    },
    examples: [
      "uwf list --status failed --limit 0",
      'uwf list --search "parser flaky"',
      "uwf list --forks-of 01J9 --recursive --json",
    ],
    json: "listResultSchema",
    load: async () => (await import("../thread/view/list.ts")).listCommand,
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
    load: async () => (await import("../thread/view/show.ts")).showCommand,
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
      agentOutput: {
        flags: "--agent-output",
        description: "print what the steps' agents printed as they ran (stdout and stderr, 1 MiB a run)",
      },
      step: { flags: "--step <n>", description: "with --agent-output: only this step's", parse: parsePositiveInteger },
    },
    examples: ["uwf log 01J9 --json", "uwf log 01J9 --follow -v", "uwf log 01J9 --agent-output --step 2"],
    json: "logResultSchema, stepResultSchema with --follow, agentOutputResultSchema with --agent-output",
    load: async () => (await import("../thread/view/log.ts")).logCommand,
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
    load: async () => (await import("../thread/view/read.ts")).readCommand,
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
    load: async () => (await import("../thread/forks/diff.ts")).diffCommand,
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
    load: async () => (await import("../thread/forks/compare.ts")).compareCommand,
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
    load: async () => (await import("../thread/forks/tree.ts")).treeCommand,
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
    load: async () => (await import("../thread/step/resume.ts")).resumeCommand,
  }),
  defineCommand({
    name: "queue",
    description: "leave an active (or failed) thread to `uwf worker`: it is queued for the next worker to claim",
    arguments: [THREAD_ARGUMENT],
    examples: ["uwf queue 01J9", 'uwf queue "$T" && uwf worker --once'],
    json: "shownThreadSchema",
    load: async () => (await import("../thread/lifecycle/queue.ts")).queueCommand,
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
    load: async () => (await import("../thread/lifecycle/wait.ts")).waitCommand,
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
    load: async () => (await import("../thread/lifecycle/cancel.ts")).cancelCommand,
  }),
  defineCommand({
    name: "delete",
    description: "remove thread records (asks first; --yes in scripts); the next cas gc collects their nodes",
    arguments: [{ syntax: "<thread...>", key: "threads", completes: "thread" }],
    options: { yes: { flags: "-y, --yes", description: "delete without asking" } },
    examples: ["uwf delete 01J9", 'uwf delete "$T" --yes'],
    json: "deleteResultSchema",
    load: async () => (await import("../thread/lifecycle/delete.ts")).deleteCommand,
  }),
];

export const THREAD_GROUP: CommandGroup = {
  name: "thread",
  description: "thread commands (same as the top-level ones)",
  commands: THREAD_COMMANDS,
  examples: ["uwf thread list", "uwf thread step 01J9"],
};
