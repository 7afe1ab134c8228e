import type { Store } from "@uwf/cas";
import {
  countThread,
  loadBudgetReport,
  readChain,
  resolveThread,
  type ThreadChain,
  toStepSummary,
  UnexpectedNodeKindError,
} from "@uwf/engine";
import {
  type Address,
  type AgentRunNode,
  type EvalStepView,
  type EvalThreadView,
  nodeKind,
  type OutputNode,
  type TextNode,
  type ThreadRecord,
  type ThreadStepNode,
} from "@uwf/protocol";
import { mapConcurrently } from "../concurrency/map-concurrently.ts";

/** A thread to view: its record, and the suite case, variant and repeat that made it (null when selected). */
export interface ThreadViewTarget {
  record: ThreadRecord;
  eval?: EvalThreadView["eval"] | null;
}

export interface LoadThreadViewsOptions {
  /** Read each step's markdown body (for command scorers and judges); JSONata needs none. */
  bodies: boolean;
  /** Threads read at once (default 16): overlaps the reads of a store that answers over the network. */
  concurrency?: number;
  signal?: AbortSignal;
}

const NOT_GENERATED: EvalThreadView["eval"] = { case: null, variant: null, repeat: null };
const DEFAULT_CONCURRENCY = 16;

/**
 * Each thread as assertions see it (EvalThreadView), in the order given: `show --json`'s record with its
 * start (prompt, cwd, inputs), its steps oldest first as `log --json` gives them (with bodies when
 * asked), the last step's output as `final`, and totals. A thread is named by id (or unique prefix),
 * by its record, or by a target that also says which suite case made it.
 *
 * Chains come through the engine's chain reader (one row of a thread's chain index, or the cache of
 * chain links), and every node is read once per call: forks share their steps up to the fork point,
 * and a family of a thousand forks reads those shared steps once.
 */
export async function loadThreadViews(
  store: Pick<Store, "objects" | "refs">,
  threads: readonly (string | ThreadRecord | ThreadViewTarget)[],
  options: LoadThreadViewsOptions,
): Promise<EvalThreadView[]> {
  const reader = new CachedReader(store);
  return mapConcurrently(
    threads,
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (thread) => {
      const target = await toTarget(store, thread);
      return reader.view(target.record, target.eval ?? NOT_GENERATED, options.bodies);
    },
    options.signal,
  );
}

async function toTarget(
  store: Pick<Store, "refs">,
  thread: string | ThreadRecord | ThreadViewTarget,
): Promise<ThreadViewTarget> {
  if (typeof thread === "string") return { record: await resolveThread(store.refs, thread) };
  if ("record" in thread) return thread;
  return { record: thread };
}

/** Reads nodes and chains at most once each within one call. */
class CachedReader {
  private readonly nodes = new Map<string, Promise<unknown>>();
  private readonly chains = new Map<string, Promise<ThreadChain>>();
  private readonly store: Pick<Store, "objects" | "refs">;

  constructor(store: Pick<Store, "objects" | "refs">) {
    this.store = store;
  }

  async view(record: ThreadRecord, evaluation: EvalThreadView["eval"], bodies: boolean): Promise<EvalThreadView> {
    const chain = await this.chain(record);
    const steps = await Promise.all(chain.steps.map((_, index) => this.step(chain, index, bodies)));
    const { budget: _limits, ...fields } = record;
    const budget = await loadBudgetReport(this.store, record);
    const inputs = chain.start.inputs ?? {};
    // One rule for every view (countThread): the steps the thread took itself (not those inherited from
    // the thread it was forked from, nor a replaced reply), and with its branches' what its budget counts.
    const counts = await countThread(this.store, record);
    const own = Math.min(counts.taken, steps.length);
    const firstOwn = steps[steps.length - own];
    const last = steps.at(-1);
    return {
      thread: record.id,
      ...fields,
      ...(budget === undefined ? {} : { budget }),
      inputs,
      start: { address: chain.startAddress, prompt: chain.start.prompt, cwd: chain.start.cwd },
      steps,
      final: last?.output ?? {},
      totals: {
        steps: counts.budgetSteps,
        tokens: record.usage.inputTokens + record.usage.outputTokens,
        costUsd: record.usage.costUsd,
        durationMs:
          firstOwn === undefined || last === undefined
            ? 0
            : Math.max(0, Date.parse(last.completedAt) - Date.parse(firstOwn.startedAt)),
      },
      eval: evaluation,
    };
  }

  private chain(record: ThreadRecord): Promise<ThreadChain> {
    let chain = this.chains.get(record.head);
    if (chain === undefined) {
      chain = readChain(this.store, record.head, { thread: record });
      this.chains.set(record.head, chain);
    }
    return chain;
  }

  private async step(chain: ThreadChain, index: number, withBody: boolean): Promise<EvalStepView> {
    const { address } = chain.steps[index] as { address: Address };
    const node = chain.nodes[index] ?? (await this.node<ThreadStepNode>(address, "thread-step/1"));
    const [output, run, body] = await Promise.all([
      this.node<OutputNode>(node.output, "output/1"),
      this.node<AgentRunNode>(node.run, "agent-run/1"),
      withBody ? this.node<TextNode>(node.body, "text/1") : undefined,
    ]);
    const summary = toStepSummary({
      number: index + 1,
      address,
      role: node.role,
      agent: run.agent,
      output: output.fields,
      startedAt: node.startedAt,
      completedAt: node.completedAt,
      usage: run.usage,
    });
    return body === undefined ? summary : { ...summary, body: body.text };
  }

  /** The node at `address`, read once per call, checked to be of `kind`. */
  private async node<Node>(address: Address, kind: string): Promise<Node> {
    let read = this.nodes.get(address);
    if (read === undefined) {
      read = this.store.objects.get(address);
      this.nodes.set(address, read);
    }
    const node = await read;
    const actual = nodeKind(node);
    if (actual !== kind) throw new UnexpectedNodeKindError(address, kind, actual);
    return node as Node;
  }
}
