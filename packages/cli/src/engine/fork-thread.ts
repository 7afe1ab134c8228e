import {
  buildReplySchema,
  type CompiledWorkflow,
  compileWorkflow,
  InvalidReplyError,
  safeExtractFrontmatter,
} from "@uwf/agent-kit";
import type { Store } from "@uwf/cas";
import {
  type Address,
  type AgentRunNode,
  agentRunNodeSchema,
  END,
  SUSPEND,
  type ThreadRecord,
  type ThreadStepNode,
  workflowNodeSchema,
  ZERO_USAGE,
} from "@uwf/protocol";
import { NodeNotOnThreadError } from "../errors/node-not-on-thread-error.ts";
import { UnroutableReplyError } from "../errors/unroutable-reply-error.ts";
import { UsageError } from "../errors/usage-error.ts";
import { chainHolds, findForkParent } from "./find-fork-parent.ts";
import { NodeBatch } from "./node-batch.ts";
import { predictNextRole } from "./predict-next-role.ts";
import { readChain, type ThreadChain } from "./read-chain.ts";
import { rememberChainIndex } from "./remember-chain-index.ts";
import { routeReply } from "./route-reply.ts";
import { ThreadHistory } from "./thread-history.ts";
import { withModeratorHistory } from "./with-moderator-history.ts";

export interface ForkThreadOptions {
  store: Store;
  address: Address;
  /**
   * The thread forked from, as the user named it (a thread forked at its head, or `--from`): its chain
   * must hold the address. Without it the parent is found by findForkParent.
   */
  parent?: ThreadRecord;
  /** A replacement reply for the head step's role: the fork records it as a new step on the same `prev`. */
  replacementReply?: { text: string; file: string };
  now(): Date;
  newId(): string;
}

/**
 * A new thread whose head is any start or step node. Nothing is copied: both threads share the chain.
 * The fork stands where its head leads: `ended` when that is `$END`, `suspended` when the head step
 * suspended. A replacement reply is routed before anything is written, and refused when it leads nowhere.
 * The record names its lineage: the parent thread, the step forked at, and whether that step's reply was replaced.
 */
export async function forkThread(options: ForkThreadOptions): Promise<ThreadRecord> {
  const { store, address, now } = options;
  let chain = await readChain(store, address);
  const point = { address, step: chain.steps.length };
  if (options.parent !== undefined && !(await chainHolds(store, options.parent, point))) {
    throw new NodeNotOnThreadError(address, options.parent.id);
  }
  const parent = options.parent ?? (await findForkParent(store, { ...point, start: chain.startAddress }));
  const workflow = workflowNodeSchema.parse(await store.objects.get(chain.start.workflow));
  const compiled = compileWorkflow(workflow);
  const id = options.newId();
  const thread = { id, workflow: workflow.name };
  let head = address;
  let next: string | null;
  let suspended: { reason: string } | null = null;
  if (options.replacementReply !== undefined) {
    const replaced = await recordReplacement({
      store,
      chain,
      reply: options.replacementReply,
      compiled,
      thread,
      now: now(),
    });
    head = replaced.address;
    next = replaced.next;
    suspended = replaced.suspended;
    chain = await readChain(store, head);
  } else {
    const history = new ThreadHistory(store.objects, chain);
    const last = history.length > 0 ? await history.step(history.length - 1) : undefined;
    if (last !== undefined && last.output.$status === SUSPEND) {
      next = last.role;
      suspended = { reason: String(last.output.reason ?? "") };
    } else {
      const mode = history.length === 0 ? "new" : "continue";
      next = await withModeratorHistory({ record: thread, start: chain.start, history }, (view) =>
        predictNextRole(compiled, view, mode),
      );
    }
  }
  const createdAt = now().toISOString();
  const record: ThreadRecord = {
    id,
    workflow: workflow.name,
    workflowAddress: chain.start.workflow,
    start: chain.startAddress,
    head,
    status: suspended !== null ? "suspended" : next === END ? "ended" : "active",
    next,
    reason: suspended?.reason ?? null,
    stepCount: chain.steps.length,
    createdAt,
    updatedAt: createdAt,
    forkedFrom: {
      thread: parent?.id ?? null,
      step: point.step,
      address,
      replaced: options.replacementReply !== undefined,
    },
    usage: ZERO_USAGE,
  };
  await store.refs.createThread(record);
  await rememberChainIndex(store, id, chain);
  return record;
}

interface RecordReplacementOptions {
  store: Store;
  /** The chain the fork starts from: its head step's reply is replaced. */
  chain: ThreadChain;
  reply: { text: string; file: string };
  compiled: CompiledWorkflow;
  thread: { id: string; workflow: string };
  now: Date;
}

interface Replacement {
  address: Address;
  /** Where the replacement reply leads: the next role, `$END`, or its own role when it suspends. */
  next: string;
  suspended: { reason: string } | null;
}

/** Checks and routes the replacement reply like an agent's, then writes it as a step on the head's `prev`. */
async function recordReplacement(options: RecordReplacementOptions): Promise<Replacement> {
  const { store, chain, reply, compiled, thread, now } = options;
  const workflow = compiled.workflow;
  const step = chain.nodes[chain.steps.length - 1];
  if (step === undefined) {
    throw new UsageError("fork --output needs a step node: a start node has no reply to replace");
  }
  const checked = safeExtractFrontmatter(reply.text, buildReplySchema(workflow, step.role));
  if (!checked.success) {
    throw new InvalidReplyError(checked.error.problem, reply.text, { file: reply.file, role: step.role });
  }
  const extracted = checked.value;
  const timestamp = now.toISOString();
  let next: string = step.role;
  let suspended: { reason: string } | null = null;
  if (extracted.fields.$status === SUSPEND) suspended = { reason: String(extracted.fields.reason ?? "") };
  else {
    // The thread before the replaced step, with the replacement as its newest step.
    const before = { ...chain, steps: chain.steps.slice(0, -1), nodes: chain.nodes.slice(0, -1) };
    const routed = await routeReply({
      compiled,
      record: thread,
      start: chain.start,
      history: new ThreadHistory(store.objects, before),
      step: {
        role: step.role,
        output: extracted.fields,
        body: extracted.body,
        agent: "manual",
        startedAt: timestamp,
        completedAt: timestamp,
      },
    });
    if (!routed.success) {
      throw new UnroutableReplyError(reply.file, step.role, routed.problem);
    }
    next = routed.route.role;
  }
  const original = agentRunNodeSchema.parse(await store.objects.get(step.run));
  const batch = new NodeBatch();
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
  return { address, next, suspended };
}
