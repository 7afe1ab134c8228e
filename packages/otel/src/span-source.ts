import { readPromptText, type Store } from "@uwf/cas";
import type { AgentRunNode, OutputNode, TextNode, ThreadRecord, ThreadStepNode } from "@uwf/protocol";
import { readNodeAs } from "./read-node-as.ts";
import { traceIdFor } from "./span-ids.ts";

/**
 * What building spans reads, each node and record once: the store, and whether prompts and replies
 * may go on the spans.
 */
export class SpanSource {
  readonly store: Pick<Store, "objects" | "refs">;
  readonly captureContent: boolean;
  private readonly records = new Map<string, Promise<ThreadRecord | null>>();
  private readonly nodes = new Map<string, Promise<unknown>>();

  constructor(store: Pick<Store, "objects" | "refs">, options: { captureContent: boolean }) {
    this.store = store;
    this.captureContent = options.captureContent;
  }

  /** A record as first read (lineage never changes, so a cached one serves for ids). */
  record(threadId: string): Promise<ThreadRecord | null> {
    let found = this.records.get(threadId);
    if (found === undefined) {
      found = this.store.refs.getThread(threadId);
      this.records.set(threadId, found);
    }
    return found;
  }

  /** Forgets a record, so the next read sees a thread's new head and status. */
  forget(threadId: string): void {
    this.records.delete(threadId);
  }

  /** The trace a thread's spans go in: its own, or for a branch its top parent's, so branch spans can be children of the fan-out step. */
  async traceId(threadId: string): Promise<string> {
    let owner = threadId;
    // Bounded: a record's branchOf never loops, but a damaged store should not hang an export.
    for (let depth = 0; depth < 64; depth++) {
      const record = await this.record(owner);
      if (record?.branchOf === undefined) break;
      owner = record.branchOf.thread;
    }
    return traceIdFor(owner);
  }

  step(address: string): Promise<ThreadStepNode | null> {
    return this.node(address, "thread-step/1");
  }

  run(address: string): Promise<AgentRunNode | null> {
    return this.node(address, "agent-run/1");
  }

  output(address: string): Promise<OutputNode | null> {
    return this.node(address, "output/1");
  }

  /** A run's prompt, whole: stored as one `text/1` node or as the parts of a `prompt/1` node. */
  prompt(address: string): Promise<string | null> {
    return readPromptText(this.store.objects, address).catch(() => null);
  }

  async text(address: string | null): Promise<string | null> {
    if (address === null) return null;
    return (await this.node<TextNode>(address, "text/1"))?.text ?? null;
  }

  private node<Node>(address: string, kind: string): Promise<Node | null> {
    const key = `${kind}:${address}`;
    let found = this.nodes.get(key);
    if (found === undefined) {
      found = readNodeAs<Node>(this.store.objects, address, kind).catch(() => null);
      this.nodes.set(key, found);
    }
    return found as Promise<Node | null>;
  }
}
