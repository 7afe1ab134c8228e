import { readPromptText, type Store } from "@uwf/cas";
import { expandNode, loadShownThread, resolveNodeOrThread, type SuspensionWait } from "@uwf/engine";
import {
  agentRunNodeSchema,
  type ExpandedNode,
  type ShownThread,
  type ShowTextResult,
  textNodeSchema,
  threadStepNodeSchema,
} from "@uwf/protocol";
import { NoReplyError } from "../../../errors/no-reply-error.ts";
import { UsageError } from "../../../errors/usage-error.ts";

// What `uwf show`, the web UI's `GET /api/threads/:id` and `/api/nodes/…`, and MCP's `show` share.

export interface ShowReferenceOptions {
  reference: string;
  prompt?: boolean;
  reply?: boolean;
}

/** What `show` found: a thread's view (and until when a suspension with a `suspendTimeout` waits), a node, or a text. */
export type ShownReference =
  | { kind: "thread"; result: ShownThread; wait: SuspensionWait | null }
  | { kind: "node"; result: ExpandedNode }
  | { kind: "text"; result: ShowTextResult };

/**
 * A thread's view (loadShownThread), or any node expanded (a step with its output, body and agent run),
 * by address, id or unique prefix (resolveNodeOrThread); with `prompt` / `reply`, the text a step's agent
 * was sent / answered.
 */
export async function showReference(store: Store, options: ShowReferenceOptions): Promise<ShownReference> {
  const { address, thread } = await resolveNodeOrThread(store, options.reference);
  if (options.prompt === true || options.reply === true) {
    const target = address ?? (thread?.head as string);
    return { kind: "text", result: await readRunText(store, target, options.prompt === true ? "prompt" : "reply") };
  }
  if (thread !== null) {
    const { shown, wait } = await loadShownThread(store, thread);
    return { kind: "thread", result: shown, wait };
  }
  return { kind: "node", result: await expandNode(store.objects, address as string) };
}

/** The prompt, or the last raw reply, of a step's agent run (or of an agent-run node itself). */
async function readRunText(store: Store, address: string, which: "prompt" | "reply"): Promise<ShowTextResult> {
  const node = await store.objects.get(address);
  const step = threadStepNodeSchema.safeParse(node);
  const runAddress = step.success ? step.data.run : address;
  const run = agentRunNodeSchema.safeParse(step.success ? await store.objects.get(runAddress) : node);
  if (!run.success) {
    throw new UsageError(`node ${address} is neither a step nor an agent run, so it has no ${which}`, { address });
  }
  const textAddress = which === "prompt" ? run.data.prompt : run.data.attempts.at(-1)?.reply;
  if (textAddress === undefined || textAddress === null) {
    throw new NoReplyError(runAddress);
  }
  if (which === "prompt") {
    const text = await readPromptText(store.objects, textAddress);
    if (text !== null) return { address: textAddress, text };
  }
  return { address: textAddress, text: textNodeSchema.parse(await store.objects.get(textAddress)).text };
}
