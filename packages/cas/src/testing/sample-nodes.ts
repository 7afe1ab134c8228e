import {
  ADDRESS_ALPHABET,
  type AgentRunNode,
  type EvalReportNode,
  type ExploreReportNode,
  type FanOutNode,
  type JoinedBranchesNode,
  type OutputNode,
  type TextNode,
  type ThreadRecord,
  type ThreadStartNode,
  type ThreadStepNode,
  type TranscriptNode,
  type WorkflowNode,
} from "@uwf/protocol";
import { addressOfNode } from "../encoding/hash-node.ts";
import type { BranchLink } from "../refs/branch-refs.ts";
import { succeededAttempt } from "./succeeded-attempt.ts";

/** The review loop the sample nodes run: a writer and a reviewer who sends the change back until it approves. */
export function sampleWorkflow(): WorkflowNode {
  return {
    type: "workflow/1",
    name: "review-loop",
    description: "Write, review, revise",
    roles: {
      writer: {
        goal: "You write the smallest change that solves the task.",
        capabilities: ["file-edit", "shell"],
        frontmatter: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] },
      },
      reviewer: {
        goal: "You review the change.",
        frontmatter: { type: "object", properties: { approved: { type: "boolean" } } },
      },
    },
    conditions: { rejected: { description: "Changes requested", expression: "steps[-1].output.approved = false" } },
    graph: {
      $START: [{ role: "writer", condition: null, status: null, prompt: "Solve the task." }],
      writer: [{ role: "reviewer", condition: null, status: null, prompt: "Review the change: {{ summary }}" }],
      reviewer: [
        { role: "writer", condition: "rejected", status: null, prompt: "Address the review: {{ comments }}" },
        { role: "$END", condition: null, status: null, prompt: "Approved." },
      ],
    },
  };
}

/**
 * One realistic node of every uwf kind, linked to each other by real addresses the way a
 * thread's first step links them. Keyed by kind, so a test can check it covers NODE_SCHEMAS.
 */
export function createSampleNodes(): Record<string, unknown> {
  const workflow = sampleWorkflow();
  const start: ThreadStartNode = {
    type: "thread-start/1",
    workflow: addressOfNode(workflow),
    prompt: "Add a --verbose flag to the parser (« naïve » input, 日本語, emoji 😀).",
    cwd: "/home/ada/project",
  };
  const prompt: TextNode = {
    type: "text/1",
    text: "## Output format\n\n---\nsummary: <string>\n---\n\nSolve the task.",
  };
  const reply: TextNode = { type: "text/1", text: "---\nsummary: Added the flag\n---\nDone.\n" };
  const transcript: TranscriptNode = {
    type: "transcript/1",
    messages: [
      { role: "user", content: "Solve the task." },
      { role: "assistant", content: [{ type: "tool_use", name: "shell", input: { command: "bun test" } }] },
    ],
  };
  const run: AgentRunNode = {
    type: "agent-run/1",
    agent: "claude",
    kind: "command",
    command: ["claude", "-p", "--output-format", "text"],
    cwd: "/home/ada/project",
    prompt: addressOfNode(prompt),
    attempts: [
      succeededAttempt({
        request: addressOfNode(prompt),
        reply: addressOfNode(reply),
        startedAt: "2026-01-02T03:04:05.000Z",
        completedAt: "2026-01-02T03:05:06.789Z",
      }),
    ],
    outcome: "ok",
    error: null,
    sessionId: "5f0c6d1e-0000-4000-8000-000000000001",
    usage: { inputTokens: 1234, outputTokens: 567, cacheReadTokens: 89, cacheWriteTokens: 0, costUsd: 0.0123 },
    extraction: "frontmatter",
    transcript: addressOfNode(transcript),
  };
  const output: OutputNode = {
    type: "output/1",
    fields: { summary: "Added the flag", files: ["src/parse.ts"], score: 0.5 },
  };
  const body: TextNode = { type: "text/1", text: "Done.\n" };
  const step: ThreadStepNode = {
    type: "thread-step/1",
    start: addressOfNode(start),
    prev: null,
    role: "writer",
    edgePrompt: "Solve the task.",
    output: addressOfNode(output),
    body: addressOfNode(body),
    run: addressOfNode(run),
    startedAt: "2026-01-02T03:04:05.000Z",
    completedAt: "2026-01-02T03:05:06.789Z",
  };
  const stepAddress = addressOfNode(step);
  const report: EvalReportNode = {
    type: "eval-report/1",
    name: "login-fix",
    createdAt: "2026-01-02T04:00:00.000Z",
    source: { kind: "suite", file: "/work/suites/login-fix.yaml", text: addressOfNode(body) },
    assertions: [{ name: "summarised", kind: "jsonata", expr: "final.summary != null" }],
    samples: [
      {
        thread: sampleThreadId(1),
        head: stepAddress,
        case: "redirect",
        variant: null,
        repeat: 0,
        workflow: "solve-issue",
        status: "active",
        outcome: null,
        path: ["writer"],
        steps: 1,
        tokens: 1801,
        costUsd: 0.0123,
        durationMs: 61_789,
        final: output.fields,
        scores: [{ assertion: "summarised", verdict: "passed", score: 1, reason: null, error: null, judge: null }],
        verdict: "passed",
        score: 1,
        error: null,
      },
    ],
    unstarted: [],
    gate: { minPassRate: 0.8 },
    rescoredFrom: null,
  };
  // An exploration of the thread: the re-runs from its one step, scored as the report's sample was.
  const [sample] = report.samples as [EvalReportNode["samples"][number]];
  const exploration: ExploreReportNode = {
    type: "explore-report/1",
    name: `explore ${sampleThreadId(1)}`,
    createdAt: "2026-01-02T04:30:00.000Z",
    thread: sampleThreadId(1),
    head: stepAddress,
    samplesPerStep: 2,
    assertions: report.assertions,
    original: sample,
    steps: [
      {
        step: 1,
        role: "writer",
        from: addressOfNode(start),
        samples: [{ ...sample, thread: sampleThreadId(4) }],
        unstarted: [{ repeat: 1, error: "interrupted before it finished" }],
      },
    ],
    gate: null,
    rescoredFrom: null,
  };
  // The writer's step fanning out to two reviewers, and what their join saw.
  const fanOut: FanOutNode = {
    type: "fan-out/1",
    kind: "parallel",
    edge: 0,
    join: { role: "writer", policy: "all", failFast: false },
    maxConcurrent: null,
    onCancel: "cancel",
    branches: [
      { key: "security", role: "reviewer", workflow: null, prompt: "Review the change for security" },
      { key: "speed", role: null, workflow: "benchmark", prompt: "Time it", inputs: { runs: 3 } },
    ],
  };
  const joined: JoinedBranchesNode = {
    type: "branches/1",
    fanOut: stepAddress,
    results: [
      {
        key: "security",
        thread: sampleThreadId(2),
        status: "ended",
        outcome: { role: "reviewer", status: "approved", edge: null },
        head: stepAddress,
        output: addressOfNode(output),
        body: addressOfNode(body),
        error: null,
        usage: { inputTokens: 1234, outputTokens: 567, cacheReadTokens: 89, cacheWriteTokens: 0, costUsd: 0.0123 },
      },
      {
        key: "speed",
        thread: sampleThreadId(3),
        status: "failed",
        outcome: null,
        head: addressOfNode(start),
        output: null,
        body: null,
        error: { code: "agent-failed", message: "exit 1" },
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
      },
    ],
  };
  return {
    "workflow/1": workflow,
    "thread-start/1": start,
    "thread-step/1": step,
    "output/1": output,
    "text/1": body,
    "agent-run/1": run,
    "transcript/1": transcript,
    "eval-report/1": report,
    "explore-report/1": exploration,
    "fan-out/1": fanOut,
    "branches/1": joined,
    "answer/1": { type: "answer/1", fields: { approved: false, comment: "Not on a Friday" } },
    "prompt/1": {
      type: "prompt/1",
      parts: [
        { text: "## Output format\n\n# History\n\n1 step so far." },
        { ref: addressOfNode(body) },
        { text: "\n" },
      ],
      history: { key: `${addressOfNode(workflow)} writer 20000`, bodies: [6], full: 0, cut: null },
    },
    // Not kinds of their own, but nodes the step reaches.
    "text/1 prompt": prompt,
    "text/1 reply": reply,
  };
}

/** A valid ULID-shaped thread id that sorts by `index`; `prefix` (Crockford base32) lets tests build ids sharing a prefix. */
export function sampleThreadId(index: number, prefix = "01JD"): string {
  let digits = "";
  for (let rest = index; rest > 0; rest = Math.floor(rest / 32)) digits = ADDRESS_ALPHABET.charAt(rest % 32) + digits;
  return prefix + digits.padStart(26 - prefix.length, "0");
}

/** A thread record that passes threadRecordSchema, with the fields a test cares about overridden. */
export function sampleThreadRecord(overrides: Partial<ThreadRecord> = {}): ThreadRecord {
  return {
    id: sampleThreadId(1),
    workflow: "review-loop",
    workflowAddress: "2W53JPNXF556H",
    start: "2SPNY716211N9",
    head: "2SPNY716211N9",
    status: "active",
    next: "writer",
    reason: null,
    stepCount: 0,
    createdAt: "2026-01-02T03:04:05.000Z",
    updatedAt: "2026-01-02T03:04:05.000Z",
    forkedFrom: null,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    ...overrides,
  };
}

/** The fan-out step the sample branches start from. */
export const SAMPLE_FAN_OUT = "B1XRH20GCX3FB";

/** A `role:` branch's record, as a fan-out makes it: the parent's history up to its fan-out step, lineage to it. */
export function sampleBranchRecord(link: BranchLink, overrides: Partial<ThreadRecord> = {}): ThreadRecord {
  return sampleThreadRecord({
    id: link.thread,
    head: SAMPLE_FAN_OUT,
    stepCount: link.step,
    next: "reviewer",
    branchOf: { thread: link.parent, step: link.step, branch: link.key, address: SAMPLE_FAN_OUT, role: "reviewer" },
    ...overrides,
  });
}
