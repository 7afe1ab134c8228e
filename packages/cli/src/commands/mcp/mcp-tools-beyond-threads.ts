import {
  compareResultSchema,
  evalListResultSchema,
  evalResultSchema,
  stepBatchResultSchema,
  stepResultSchema,
  threadStatusSchema,
  treeResultSchema,
  workflowListResultSchema,
  workflowValidateResultSchema,
} from "@uwf/protocol";
import { z } from "zod";
import { readThreadTree } from "../thread/view/thread-view-reads.ts";
import type { McpToolSpec } from "./mcp-tool-spec.ts";
import { agent, notStdin, threadId, timeout } from "./tool-input-fields.ts";

const rate = z.number().min(0).max(1);

/** The gate of `uwf eval` and `eval show`: exit 3 (`_meta["uwf/exitCode"]`) when it does not hold. */
const gate = {
  minPassRate: rate.optional().describe("gate: exit code 3 unless the pass rate over all samples is at least this"),
  minCasePassRate: rate.optional().describe("gate: exit code 3 unless every case's pass rate is at least this"),
  passK: z.number().int().positive().optional().describe("gate: exit code 3 unless every case passed its first K"),
  allowErrors: z.boolean().optional().describe("count errored samples as failing instead of failing the call"),
};

/**
 * The tools beyond the thread commands: many threads at once, following a thread, fork families,
 * evaluations and workflows. Workflows are named as stored (a registered name or hash); a workflow or
 * suite the client writes is sent as YAML text, never as a path the server would read.
 */
export const EXTRA_MCP_TOOLS: readonly McpToolSpec[] = [
  {
    name: "step_batch",
    title: "Step many threads",
    description:
      "Step several threads, up to `parallel` at once: each at most `steps` steps (default 1), or with `all` until it ends or suspends. Returns every thread's standing and the batch's spend, as `uwf step T… --parallel K --json`.",
    command: ["step"],
    input: {
      threads: z.array(threadId).min(1).describe("the thread ids (or unique prefixes) to step"),
      steps: z.number().int().positive().optional().describe("run at most N steps of each thread (default 1)"),
      all: z.boolean().optional().describe("run each thread until it ends or suspends"),
      parallel: z.number().int().positive().optional().describe("step up to K threads at once (default 1)"),
      batchMaxCost: z
        .number()
        .positive()
        .optional()
        .describe("start no more steps once the batch has spent this many US dollars"),
      agent,
      timeout,
    },
    toOptions: ({ threads, parallel, ...rest }) => {
      for (const thread of threads as string[]) notStdin(thread, "threads");
      // `parallel` makes it a batch even for one thread, so the result always has the batch's shape.
      return { ...rest, threads, parallel: parallel ?? 1 };
    },
    output: stepBatchResultSchema,
    readOnly: false,
    runsAgents: true,
  },
  {
    name: "follow",
    title: "Follow a thread",
    description:
      "Wait while other processes (a worker, a terminal) step a thread, until it ends, suspends, fails or is cancelled; each step recorded meanwhile comes as a progress notification when the call has a progress token. Returns the steps seen, as `uwf log --follow --json`.",
    command: ["log"],
    input: { thread: threadId },
    toOptions: (input) => {
      notStdin(input.thread, "thread");
      return { ...input, follow: true };
    },
    output: stepResultSchema,
    readOnly: true,
    runsAgents: false,
    reportsSteps: true,
  },
  {
    name: "tree",
    title: "A thread's family tree",
    description:
      "A thread's whole family from its root original: each fork under the step it branched at, with its status and outcome. As `uwf tree --json`.",
    command: ["tree"],
    input: { thread: threadId },
    toOptions: (input) => input,
    read: (store, options) => readThreadTree(store, options as { thread: string }),
    output: treeResultSchema,
    readOnly: true,
    runsAgents: false,
  },
  {
    name: "compare",
    title: "Compare a fork family",
    description:
      "A fork family side by side: each member's outcome, own steps, cost, time and the step where it parts from the original. As `uwf compare --json`.",
    command: ["compare"],
    input: {
      reference: z.string().min(1).describe("a thread id, a node address, or a unique prefix of either"),
      direct: z.boolean().optional().describe("only the thread's own forks, not forks of forks"),
      sort: z.string().optional().describe("order the forks by this column (the original stays first)"),
    },
    toOptions: (input) => input,
    output: compareResultSchema,
    readOnly: true,
    runsAgents: false,
  },
  {
    name: "eval",
    title: "Evaluate threads or run a suite",
    description:
      'Run a suite (its YAML text, whose workflows are registered names or hashes) and score its threads, or score stored threads (threads, forksOf, workflow, status) with assert; the report is stored. As `uwf eval --json`; with a gate, `_meta["uwf/exitCode"]` is 3 when it did not hold.',
    command: ["eval", "run"],
    input: {
      suite: z
        .string()
        .min(1)
        .optional()
        .describe("a suite's YAML text (docs/suites.md): its cases, variants, assertions and gate"),
      threads: z.array(threadId).optional().describe("stored threads to score"),
      forksOf: z.string().optional().describe("score the forks of this thread"),
      recursive: z.boolean().optional().describe("with forksOf: their forks too, at any depth"),
      workflow: z.string().optional().describe("only threads of this workflow"),
      status: threadStatusSchema.optional().describe("only threads in this status"),
      assert: z
        .array(z.string().min(1))
        .optional()
        .describe("assertions: NAME=JSONATA, outcome: STATUS, status: STATUS, command: CMD, judge: WORKFLOW[#ROLE]"),
      name: z.string().optional().describe("the report's name (default: the suite's, or the selection)"),
      parallel: z.number().int().positive().optional().describe("with suite: run up to K threads at once (default 4)"),
      fresh: z.boolean().optional().describe("with suite: run every thread anew instead of reusing finished ones"),
      count: z.number().int().positive().optional().describe("with a suite's from: NODE, forks per variant"),
      maxCost: z.number().positive().optional().describe("with suite: start no step once its threads spent this"),
      agent,
      timeout,
      ...gate,
      baseline: z.string().optional().describe("compare with a variant of this report, or with a stored report"),
    },
    toOptions: ({ suite, threads, ...rest }) => {
      for (const thread of (threads as string[] | undefined) ?? []) notStdin(thread, "threads");
      return { ...rest, threads, suiteText: suite };
    },
    output: evalResultSchema,
    readOnly: false,
    runsAgents: true,
  },
  {
    name: "eval_show",
    title: "Show an evaluation report",
    description:
      "A stored evaluation report: its variants' pass rates, cases and samples. As `uwf eval show --json`; `_meta[\"uwf/exitCode\"]` is 3 when the report's gate did not hold.",
    command: ["eval", "show"],
    input: {
      report: z.string().min(1).describe("a report id or unique prefix (eval_list lists them)"),
      baseline: z.string().optional().describe("compare with a variant of this report, or with a stored report"),
    },
    toOptions: (input) => input,
    output: evalResultSchema,
    readOnly: true,
    runsAgents: false,
  },
  {
    name: "eval_list",
    title: "List evaluation reports",
    description: "Stored evaluation reports, newest first. As `uwf eval list --json`.",
    command: ["eval", "list"],
    input: {
      name: z.string().optional().describe("only the reports of this suite"),
      limit: z.number().int().nonnegative().optional().describe("at most N (default 30; 0: all)"),
      offset: z.number().int().nonnegative().optional().describe("skip the first N"),
    },
    toOptions: (input) => input,
    output: evalListResultSchema,
    readOnly: true,
    runsAgents: false,
  },
  {
    name: "workflow_list",
    title: "List workflows",
    description:
      "The registered workflows (and those in the project's .uwf/workflows/), each with its name and hash. As `uwf workflow list --json`.",
    command: ["workflow", "list"],
    input: {},
    toOptions: (input) => input,
    output: workflowListResultSchema,
    readOnly: true,
    runsAgents: false,
  },
  {
    name: "workflow_validate",
    title: "Validate a workflow",
    description:
      'Check a workflow\'s YAML text without storing it: every error and warning with its line and field path, its name and hash when valid. As `uwf workflow validate --json`; `_meta["uwf/exitCode"]` is 1 when it is invalid.',
    command: ["workflow", "validate"],
    input: {
      yaml: z.string().describe("the workflow's YAML text (an !include is refused: it would read a file)"),
      file: z.string().min(1).optional().describe("how problems name it (default workflow.yaml); no file is read"),
    },
    toOptions: ({ yaml, file }) => ({ file: file ?? "workflow.yaml", source: yaml }),
    output: workflowValidateResultSchema,
    readOnly: true,
    runsAgents: false,
  },
];
