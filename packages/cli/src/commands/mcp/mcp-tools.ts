import { listThreadViews } from "@uwf/engine";
import {
  diffResultSchema,
  listResultSchema,
  logResultSchema,
  readResultSchema,
  shownThreadSchema,
  startResultSchema,
  stepResultSchema,
} from "@uwf/protocol";
import { z } from "zod";
import { type ListThreadsOptions, listEnvironment, listQueryOf } from "../thread/view/list-query.ts";
import { type ShowReferenceOptions, showReference } from "../thread/view/show-reference.ts";
import { readThreadLog } from "../thread/view/thread-view-reads.ts";
import type { McpToolSpec } from "./mcp-tool-spec.ts";
import { EXTRA_MCP_TOOLS } from "./mcp-tools-beyond-threads.ts";
import { agent, budget, notStdin, startInput, startOptions, threadId, timeout } from "./tool-input-fields.ts";

export const MCP_TOOLS: readonly McpToolSpec[] = [
  {
    name: "start",
    title: "Start a thread",
    description:
      "Start a thread of a workflow with a task; it is not stepped (use step or run). Returns { thread, workflow, head }, as `uwf start --json`.",
    command: ["start"],
    input: {
      ...startInput,
      queue: z.boolean().optional().describe("leave the thread to `uwf worker` instead of stepping it here"),
    },
    toOptions: startOptions,
    output: startResultSchema,
    readOnly: false,
    runsAgents: false,
  },
  {
    name: "step",
    title: "Step a thread",
    description:
      "Run a thread's next steps: at most `steps` (default 1) in this call, or with `all` until it ends or suspends. Returns the steps taken and where the thread stands, as `uwf step --json`.",
    command: ["step"],
    input: {
      thread: threadId,
      steps: z
        .number()
        .int()
        .positive()
        .optional()
        .describe("the step budget of this call: run at most N steps (default 1)"),
      all: z.boolean().optional().describe("run until the thread ends or suspends (its own budget still holds)"),
      agent,
      timeout,
    },
    toOptions: ({ thread, ...rest }) => {
      notStdin(thread, "thread");
      return { ...rest, threads: [thread] };
    },
    output: stepResultSchema,
    readOnly: false,
    runsAgents: true,
  },
  {
    name: "run",
    title: "Run a workflow",
    description:
      "Start a thread and step it until it ends or suspends (or reaches its budget: set maxSteps). Returns what step returns, as `uwf run --json`.",
    command: ["run"],
    input: { ...startInput, agent, timeout },
    toOptions: startOptions,
    output: stepResultSchema,
    readOnly: false,
    runsAgents: true,
  },
  {
    name: "show",
    title: "Show a thread or node",
    description:
      "A thread's record (status, next role, outcome, usage, lineage), or any start or step node expanded; with prompt or reply, the text the agent was sent or answered. As `uwf show --json`.",
    command: ["show"],
    input: {
      reference: z.string().min(1).describe("a thread id, a node address, or a unique prefix of either"),
      prompt: z.boolean().optional().describe("the prompt sent to the agent"),
      reply: z.boolean().optional().describe("the agent's raw reply"),
    },
    toOptions: (input) => input,
    read: async (store, options) => (await showReference(store, options as unknown as ShowReferenceOptions)).result,
    readOnly: true,
    runsAgents: false,
  },
  {
    name: "log",
    title: "A thread's steps",
    description: "Each step of a thread: its role, output fields, agent and usage. As `uwf log --json`.",
    command: ["log"],
    input: { thread: threadId },
    toOptions: (input) => input,
    read: (store, options) => readThreadLog(store, options.thread as string),
    output: logResultSchema,
    readOnly: true,
    runsAgents: false,
  },
  {
    name: "read",
    title: "Read a thread",
    description:
      "A thread as a markdown transcript: the task, then each step (its prompt, output and body), the newest within the quota. As `uwf read --json`.",
    command: ["read"],
    input: {
      thread: threadId,
      quota: z.number().int().positive().optional().describe("keep the newest steps within this many characters"),
    },
    toOptions: (input) => ({ ...input, pager: false }),
    output: readResultSchema,
    readOnly: true,
    runsAgents: false,
  },
  {
    name: "list",
    title: "List threads",
    description: "Thread records, newest first (30 unless limit says otherwise). As `uwf list --json`.",
    command: ["list"],
    input: {
      status: z
        .enum(["active", "waiting", "suspended", "ended", "cancelled", "failed"])
        .optional()
        .describe("only threads with this status"),
      outcome: z.string().optional().describe("only ended threads whose ending reply's $status is this"),
      workflow: z.string().optional().describe("only threads of this workflow"),
      schedule: z.string().optional().describe("only threads this schedule started"),
      limit: z.number().int().nonnegative().optional().describe("at most N threads (default 30; 0 for all)"),
      offset: z.number().int().nonnegative().optional().describe("skip the first N"),
      forksOf: z.string().optional().describe("only the forks of this thread"),
      recursive: z.boolean().optional().describe("with forksOf: their forks too, at any depth"),
      running: z.boolean().optional().describe("only threads being stepped now, with who holds each"),
    },
    toOptions: (input) => input,
    read: (store, options, context) =>
      listThreadViews(store, listQueryOf(options as ListThreadsOptions), listEnvironment(context)),
    output: listResultSchema,
    readOnly: true,
    runsAgents: false,
  },
  {
    name: "fork",
    title: "Fork a thread",
    description:
      "A new thread from any start or step node, or from a thread's head; nothing is copied. With output (a file) or outputText (the reply itself), the head step's reply is replaced (a counterfactual). As `uwf fork --json`: { thread, forkedFrom, head }, or { forks } with count or an output folder.",
    command: ["fork"],
    input: {
      reference: z.string().min(1).describe("a thread id (forked at its head), a node address, or a unique prefix"),
      from: z
        .string()
        .optional()
        .describe("the thread a node address is forked from (default: found from the address)"),
      output: z
        .string()
        .optional()
        .describe("a reply file that replaces the head step's reply (a folder: one fork per file), as --output"),
      outputText: z
        .string()
        .optional()
        .describe("the replacement reply itself (frontmatter and body), instead of output"),
      count: z.number().int().positive().optional().describe("make N forks"),
      maxForks: z.number().int().positive().optional().describe("make at most N forks in this call (default 1000)"),
      ...budget,
      queue: z.boolean().optional().describe("put the forks in the queue for `uwf worker`"),
    },
    toOptions: ({ outputText: _text, ...input }) => {
      notStdin(input.output, "output");
      return input;
    },
    readOnly: false,
    runsAgents: false,
  },
  {
    name: "diff",
    title: "Compare two threads",
    description: "Two threads (or two start or step nodes) compared from their last common step. As `uwf diff --json`.",
    command: ["diff"],
    input: {
      left: z.string().min(1).describe("a thread id or node address"),
      right: z.string().min(1).describe("a thread id or node address"),
      bodies: z.boolean().optional().describe("also a unified diff of each pair of step bodies"),
    },
    toOptions: (input) => input,
    output: diffResultSchema,
    readOnly: true,
    runsAgents: false,
  },
  {
    name: "resume",
    title: "Resume a thread",
    description:
      "Answer a suspended thread (prompt: text; answer: the typed fields its role's answer: asks for), raise the limits of one its budget suspended, continue an ended one, or retry a failed one; runs that step (with all: on until it ends or suspends). As `uwf resume --json`.",
    command: ["resume"],
    input: {
      thread: threadId,
      prompt: z.string().optional().describe("the answer or new instruction, as text"),
      promptFile: z.string().optional().describe("the answer from a file"),
      answer: z
        .union([z.record(z.string(), z.unknown()), z.string()])
        .optional()
        .describe("the typed answer a role with answer: needs: an object, or YAML/JSON text, or a file"),
      ...budget,
      all: z.boolean().optional().describe("then step on until the thread ends or suspends"),
      agent,
      timeout,
    },
    toOptions: ({ answer, ...rest }) => {
      notStdin(rest.prompt, "prompt");
      notStdin(rest.promptFile, "promptFile");
      notStdin(answer, "answer");
      return { ...rest, answer: typeof answer === "object" && answer !== null ? JSON.stringify(answer) : answer };
    },
    output: stepResultSchema,
    readOnly: false,
    runsAgents: true,
  },
  {
    name: "cancel",
    title: "Cancel a thread",
    description:
      "Stop a thread for good, a running step of it too; it can still be read and forked. Returns its record, as `uwf cancel --json`.",
    command: ["cancel"],
    input: {
      thread: threadId,
      wait: z
        .boolean()
        .optional()
        .describe("wait for a running step to stop (default true; false: only ask it to stop)"),
      timeout: z.number().positive().optional().describe("how long to wait for a running step to stop, in seconds"),
    },
    toOptions: (input) => input,
    output: shownThreadSchema,
    readOnly: false,
    runsAgents: false,
  },
  ...EXTRA_MCP_TOOLS,
];
