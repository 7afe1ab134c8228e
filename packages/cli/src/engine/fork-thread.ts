import { buildReplySchema, compileWorkflow, extractFrontmatter } from "@uwf/agent-kit";
import type { Store } from "@uwf/cas";
import {
  type Address,
  type AgentRunNode,
  agentRunNodeSchema,
  type ThreadRecord,
  type ThreadStepNode,
  UwfError,
  type WorkflowNode,
  workflowNodeSchema,
  ZERO_USAGE,
} from "@uwf/protocol";
import { NodeBatch } from "./node-batch.ts";
import { predictNextRole } from "./predict-next-role.ts";
import { readChain } from "./read-chain.ts";
import { rememberChainIndex } from "./remember-chain-index.ts";
import { ThreadHistory } from "./thread-history.ts";
import { withModeratorHistory } from "./with-moderator-history.ts";

export interface ForkThreadOptions {
  store: Store;
  address: Address;
  /** A replacement reply for the head step's role: the fork records it as a new step on the same `prev`. */
  replacementReply?: { text: string; file: string };
  now(): Date;
  newId(): string;
}

/** A new thread whose head is any start or step node. Nothing is copied: both threads share the chain. */
export async function forkThread(options: ForkThreadOptions): Promise<ThreadRecord> {
  const { store, address, now } = options;
  let chain = await readChain(store, address);
  const workflow = workflowNodeSchema.parse(await store.objects.get(chain.start.workflow));
  let head = address;
  if (options.replacementReply !== undefined) {
    const headNode = chain.nodes[chain.steps.length - 1];
    head = await recordReplacement(store, headNode, options.replacementReply, workflow, now());
    chain = await readChain(store, head);
  }
  const id = options.newId();
  const createdAt = now().toISOString();
  const history = new ThreadHistory(store.objects, chain);
  if (history.length > 0) await history.step(history.length - 1);
  const compiled = compileWorkflow(workflow);
  const mode = history.length === 0 ? "new" : "continue";
  const record: ThreadRecord = {
    id,
    workflow: workflow.name,
    workflowAddress: chain.start.workflow,
    start: chain.startAddress,
    head,
    status: "active",
    next: await withModeratorHistory({ record: { id, workflow: workflow.name }, start: chain.start, history }, (view) =>
      predictNextRole(compiled, view, mode),
    ),
    reason: null,
    stepCount: chain.steps.length,
    createdAt,
    updatedAt: createdAt,
    forkedFrom: address,
    usage: ZERO_USAGE,
  };
  await store.refs.createThread(record);
  await rememberChainIndex(store, id, chain);
  return record;
}

async function recordReplacement(
  store: Store,
  step: ThreadStepNode | undefined,
  reply: { text: string; file: string },
  workflow: WorkflowNode,
  now: Date,
): Promise<Address> {
  if (step === undefined) {
    throw new UwfError("usage", "fork --output needs a step node: a start node has no reply to replace");
  }
  const extracted = extractFrontmatter(reply.text, buildReplySchema(workflow, step.role));
  if (!extracted.success) {
    throw new UwfError("invalid-reply", `${reply.file}: ${extracted.problem}`, {
      data: { file: reply.file, role: step.role },
    });
  }
  const original = agentRunNodeSchema.parse(await store.objects.get(step.run));
  const batch = new NodeBatch();
  const timestamp = now.toISOString();
  const run: AgentRunNode = {
    type: "agent-run/1",
    agent: "manual",
    kind: "manual",
    command: null,
    cwd: original.cwd,
    prompt: original.prompt,
    attempts: [
      {
        request: original.prompt,
        reply: batch.addText(reply.text),
        exitCode: null,
        signal: null,
        timedOut: false,
        interrupted: false,
        stderrTail: "",
        error: null,
        startedAt: timestamp,
        completedAt: timestamp,
      },
    ],
    outcome: "ok",
    error: null,
    sessionId: null,
    usage: null,
    extraction: "manual",
    transcript: null,
  };
  const replacement: ThreadStepNode = {
    ...step,
    output: batch.add({ type: "output/1", fields: extracted.fields }),
    body: batch.addText(extracted.body),
    run: batch.add(run),
    startedAt: timestamp,
    completedAt: timestamp,
  };
  const address = batch.add(replacement);
  await batch.write(store.objects);
  return address;
}
