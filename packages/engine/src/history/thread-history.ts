import type { ObjectStore } from "@uwf/cas";
import type { AgentRunNode, AnswerNode, OutputNode, TextNode, ThreadStepNode } from "@uwf/protocol";
import type { HistoryStep } from "./history-step.ts";
import type { ChainStep, ThreadChain } from "./read-chain.ts";
import { storedNodeAs } from "./stored-node.ts";

/** A step's node, output, body and agent run, as far as they have been read. */
export interface StepReads {
  node?: ThreadStepNode;
  output?: Record<string, unknown>;
  body?: string;
  run?: AgentRunNode;
  /** The person's answer, on a step that answered a typed suspension (read with the step). */
  answer?: Record<string, unknown>;
}

/**
 * A thread's steps, read on demand. The chain holds each step's address and role; its
 * node (edge prompt, times), output, body and agent run are read from the store when first asked
 * for, and kept. So a step reads the steps its prompt shows and whatever its conditions touch,
 * not every node of a long thread.
 */
export class ThreadHistory {
  readonly steps: readonly ChainStep[];
  readonly objects: ObjectStore;
  private readonly chainNodes: ThreadChain["nodes"];
  /** Sparse: a step's entry is made when something of it is read. */
  private readonly reads: StepReads[] = [];

  constructor(objects: ObjectStore, chain: ThreadChain) {
    this.objects = objects;
    this.steps = chain.steps;
    this.chainNodes = chain.nodes;
  }

  get length(): number {
    return this.steps.length;
  }

  /** What has been read of the step at `index`, without reading anything. */
  peek(index: number): Readonly<StepReads> {
    return this.reads[index] ?? { node: this.chainNodes[index] };
  }

  /** The node of the step at `index`. */
  async node(index: number): Promise<ThreadStepNode> {
    const { address } = this.chainStep(index);
    const reads = this.readsOf(index);
    reads.node ??= storedNodeAs<ThreadStepNode>("thread-step/1", address, await this.objects.get(address));
    return reads.node;
  }

  /** The step at `index`, whole: its node, output, body and agent run are read if they were not yet. */
  async step(index: number): Promise<HistoryStep> {
    const chainStep = this.chainStep(index);
    const node = await this.node(index);
    const output = await this.output(index);
    const body = await this.body(index);
    const run = await this.run(index);
    const answer = await this.answer(index);
    return {
      number: index + 1,
      address: chainStep.address,
      role: node.role,
      agent: run.agent,
      output,
      body,
      edgePrompt: node.edgePrompt,
      startedAt: node.startedAt,
      completedAt: node.completedAt,
      run: node.run,
      usage: run.usage,
      ...(answer === null ? {} : { answer }),
    };
  }

  /** The person's answer recorded with the step at `index`; null when it answered no typed suspension. */
  async answer(index: number): Promise<Record<string, unknown> | null> {
    const node = await this.node(index);
    if (node.answer === undefined) return null;
    const reads = this.readsOf(index);
    reads.answer ??= storedNodeAs<AnswerNode>("answer/1", node.answer, await this.objects.get(node.answer)).fields;
    return reads.answer;
  }

  /** The output fields of the step at `index`. */
  async output(index: number): Promise<Record<string, unknown>> {
    const node = await this.node(index);
    const reads = this.readsOf(index);
    reads.output ??= storedNodeAs<OutputNode>("output/1", node.output, await this.objects.get(node.output)).fields;
    return reads.output;
  }

  /** The body of the step at `index`. */
  async body(index: number): Promise<string> {
    const node = await this.node(index);
    const reads = this.readsOf(index);
    reads.body ??= storedNodeAs<TextNode>("text/1", node.body, await this.objects.get(node.body)).text;
    return reads.body;
  }

  /** The steps from `from` to the newest, whole, oldest first. */
  async stepsFrom(from: number): Promise<HistoryStep[]> {
    const steps: HistoryStep[] = [];
    for (let index = Math.max(from, 0); index < this.steps.length; index++) steps.push(await this.step(index));
    return steps;
  }

  /** The agent run of the step at `index`. */
  async run(index: number): Promise<AgentRunNode> {
    const node = await this.node(index);
    const reads = this.readsOf(index);
    reads.run ??= storedNodeAs<AgentRunNode>("agent-run/1", node.run, await this.objects.get(node.run));
    return reads.run;
  }

  private readsOf(index: number): StepReads {
    let reads = this.reads[index];
    if (reads === undefined) {
      reads = { node: this.chainNodes[index] };
      this.reads[index] = reads;
    }
    return reads;
  }

  private chainStep(index: number): ChainStep {
    const chainStep = this.steps[index];
    if (chainStep === undefined) throw new RangeError(`the thread has no step at index ${index}`);
    return chainStep;
  }
}
