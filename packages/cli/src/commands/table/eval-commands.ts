import { type CommandEntry, type CommandGroup, defineCommand } from "./define-command.ts";
import {
  collect,
  parseNonNegativeInteger,
  parsePositiveInteger,
  parsePositiveNumber,
  parseRate,
} from "./option-value-parsers.ts";
import { AGENT_OPTION, TIMEOUT_OPTION } from "./shared-options.ts";

const HTML_OPTION = {
  flags: "--html <file>",
  description: "also write the report as one self-contained HTML page",
  completes: "file",
} as const;

/** How `uwf eval`, `eval show` and `eval rescore` show a report and gate on it. */
const EVAL_OUTPUT_OPTIONS = {
  baseline: {
    flags: "--baseline <variant|report>",
    description: "compare with a variant of this report, or with a stored report (id or prefix)",
  },
  markdown: { flags: "--markdown", description: "print the report as Markdown, to paste into a pull request" },
  html: HTML_OPTION,
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

/** The gate of `uwf explore` and `explore rescore`. */
const EXPLORE_MIN_PASS_RATE_OPTION = {
  flags: "--min-pass-rate <rate>",
  description: "gate: exit 3 unless the re-runs from the first explored step pass at least this often",
  parse: parseRate,
} as const;

/** How `uwf explore`, `explore show` and `explore rescore` exit on a report and write its page. */
const EXPLORE_OUTPUT_OPTIONS = {
  allowErrors: { flags: "--allow-errors", description: "do not exit 1 for re-runs that errored or were not run" },
  html: HTML_OPTION,
} as const;

const ASSERT_OPTION = {
  flags: "--assert <assertion>",
  description:
    "score with NAME=JSONATA, outcome: STATUS, status: STATUS, command: CMD, judge: WORKFLOW[#ROLE] (repeatable)",
  parse: collect,
} as const;

/** What `eval rescore` and `explore rescore` judge with: the assertions, and the judges' agent and timeout. */
const RESCORE_OPTIONS = {
  assert: ASSERT_OPTION,
  replace: { flags: "--replace", description: "score only the --assert given, dropping the report's own" },
  agent: AGENT_OPTION,
  timeout: TIMEOUT_OPTION,
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
    load: async () => (await import("../eval/eval-run.ts")).evalRunCommand,
  }),
  defineCommand({
    name: "show",
    description: "print a stored report; exits as its gate says",
    arguments: [REPORT_ARGUMENT],
    options: { ...EVAL_OUTPUT_OPTIONS },
    examples: ["uwf eval show 01JB", "uwf eval show 01JB --markdown", "uwf eval show 01JB --baseline v1"],
    json: "evalResultSchema",
    load: async () => (await import("../eval/eval-show.ts")).evalShowCommand,
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
    load: async () => (await import("../eval/eval-list.ts")).evalListCommand,
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
    load: async () => (await import("../eval/eval-diff.ts")).evalDiffCommand,
  }),
  defineCommand({
    name: "rescore",
    description: "score a report's threads again with new assertions; nothing is re-run but judges",
    arguments: [REPORT_ARGUMENT],
    options: {
      ...RESCORE_OPTIONS,
      ...EVAL_GATE_OPTIONS,
      ...EVAL_OUTPUT_OPTIONS,
    },
    examples: [
      "uwf eval rescore 01JB --assert 'short=totals.steps < 5'",
      "uwf eval rescore 01JB --replace --assert 'outcome: approved'",
    ],
    json: "evalResultSchema",
    load: async () => (await import("../eval/eval-rescore.ts")).evalRescoreCommand,
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
      minPassRate: EXPLORE_MIN_PASS_RATE_OPTION,
      ...EXPLORE_OUTPUT_OPTIONS,
    },
    examples: [
      "uwf explore 01J9 --assert 'outcome: approved'",
      "uwf explore 01J9 --steps 2..7 --samples 10 --max-cost 5 --html explore.html",
      "uwf explore 01J9 --reuse 01JB --assert 'short=totals.steps < 8'",
    ],
    json: "exploreResultSchema",
    load: async () => (await import("../explore/explore-run.ts")).exploreRunCommand,
  }),
  defineCommand({
    name: "show",
    description: "print a stored exploration; exits as its gate says",
    arguments: [REPORT_ARGUMENT],
    options: {
      ...EXPLORE_OUTPUT_OPTIONS,
    },
    examples: ["uwf explore show 01JB", "uwf explore show 01JB --html explore.html"],
    json: "exploreResultSchema",
    load: async () => (await import("../explore/explore-show.ts")).exploreShowCommand,
  }),
  defineCommand({
    name: "rescore",
    description: "score an exploration's re-runs again with new assertions; nothing is re-run but judges",
    arguments: [REPORT_ARGUMENT],
    options: {
      ...RESCORE_OPTIONS,
      name: { flags: "--name <name>", description: "the new report's name (default: the old one's)" },
      minPassRate: EXPLORE_MIN_PASS_RATE_OPTION,
      ...EXPLORE_OUTPUT_OPTIONS,
    },
    examples: ["uwf explore rescore 01JB --assert 'outcome: approved'"],
    json: "exploreResultSchema",
    load: async () => (await import("../explore/explore-rescore.ts")).exploreRescoreCommand,
  }),
];

/** `uwf eval` and `uwf explore`. */
export const EVAL_GROUPS: readonly CommandGroup[] = [
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
];
