import { END, type ThreadRecord, type ThreadStartNode, type WorkflowNode } from "@uwf/protocol";
import { type CompiledWorkflow, compileWorkflow, pickNextRole } from "@uwf/workflow";
import type { ThreadChain } from "../history/read-chain.ts";
import { storedNodeAs } from "../history/stored-node.ts";
import { ThreadHistory } from "../history/thread-history.ts";
import { withModeratorHistory } from "../history/with-moderator-history.ts";
import { isRoutingError } from "../routing/is-routing-error.ts";

export interface FindContinuationOptions {
  record: ThreadRecord;
  chain: ThreadChain;
  history: ThreadHistory;
  /** Reads the thread's workflow once, when first needed. */
  compiled: () => Promise<CompiledWorkflow>;
}

/**
 * The prompt a person continued an ended thread with (`uwf resume T -p PROMPT` after `$END`), if the
 * step at `index` is such a continuation; else null. That step's edge prompt is the workflow's
 * `$START` resume edge, rendered, then a blank line and the person's prompt: it is one when the step
 * before it routed to `$END`, and its role and edge prompt are what the resume edge gives there.
 */
export async function findContinuation(options: FindContinuationOptions, index: number): Promise<string | null> {
  const { history } = options;
  if (index < 1) return null;
  const node = await history.node(index);
  if (!node.edgePrompt.includes("\n\n") || node.answer !== undefined || node.timedOut !== undefined) return null;
  const before = prefix(options, index);
  const compiled = await options.compiled();
  const ended = await decide(options, before, compiled, "continue");
  if (ended?.role !== END) return null;
  const resumed = await decide(options, before, compiled, "resume");
  if (resumed === null || resumed.role !== node.role) return null;
  const lead = `${resumed.prompt}\n\n`;
  return node.edgePrompt.startsWith(lead) ? node.edgePrompt.slice(lead.length) : null;
}

/** The workflow a thread ran, compiled: read on first use only, as most threads were never continued. */
export function lazyCompiledWorkflow(
  objects: ThreadHistory["objects"],
  record: ThreadRecord,
): () => Promise<CompiledWorkflow> {
  let compiled: CompiledWorkflow | undefined;
  return async () => {
    compiled ??= compileWorkflow(
      storedNodeAs<WorkflowNode>("workflow/1", record.workflowAddress, await objects.get(record.workflowAddress)),
    );
    return compiled;
  };
}

/** The thread's history as it stood before the step at `index`. */
function prefix(options: FindContinuationOptions, index: number): ThreadHistory {
  const { chain, history } = options;
  return new ThreadHistory(history.objects, {
    ...chain,
    steps: chain.steps.slice(0, index),
    nodes: chain.nodes.slice(0, index),
  });
}

async function decide(
  options: FindContinuationOptions,
  history: ThreadHistory,
  compiled: CompiledWorkflow,
  mode: "continue" | "resume",
): Promise<{ role: string; prompt: string } | null> {
  const start: ThreadStartNode = options.chain.start;
  try {
    return await withModeratorHistory({ record: options.record, start, history }, (view) =>
      pickNextRole(compiled, view, { mode }),
    );
  } catch (error) {
    // A workflow without a resume edge, or a route that no longer holds: no continuation to find.
    if (isRoutingError(error)) return null;
    throw error;
  }
}
