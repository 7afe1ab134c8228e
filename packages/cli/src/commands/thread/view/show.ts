import { readPromptText, type Store } from "@uwf/cas";
import { expandNode, loadThreadView, resolveNodeOrThread, shownThreadOf } from "@uwf/engine";
import {
  agentRunNodeSchema,
  type ShownThread,
  type ShowResult,
  type ShowTextResult,
  textNodeSchema,
  threadStepNodeSchema,
} from "@uwf/protocol";
import { NoReplyError } from "../../../errors/no-reply-error.ts";
import { UsageError } from "../../../errors/usage-error.ts";
import { formatExpandedNode } from "../../../format/thread/format-expanded-node.ts";
import { formatThreadRecord } from "../../../format/thread/format-thread-record.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";

export interface ShowCommandOptions {
  reference: string;
  prompt?: boolean;
  reply?: boolean;
}

/**
 * Like `git show`: a node (a step comes with its output, body and agent run) or a thread, by address, id
 * or unique prefix (see resolveNodeOrThread). `--prompt` / `--reply` print what the agent was sent / answered.
 */
export async function showCommand(
  options: ShowCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<ShowResult>> {
  const store = await context.openStore({ create: false });
  const { address, thread } = await resolveNodeOrThread(store, options.reference);
  if (options.prompt === true || options.reply === true) {
    const target = address ?? (thread?.head as string);
    const result = await readRunText(store, target, options.prompt === true ? "prompt" : "reply");
    return { result, format: (value) => (value as typeof result).text };
  }
  if (thread !== null) {
    // A parent's budget counts what its branches spent: the same figures its steps are checked against.
    const view = await loadThreadView(store, thread, {
      inputs: true,
      branches: true,
      suspension: true,
      counts: true,
      wait: true,
    });
    const shown = shownThreadOf(view);
    // A suspension with a suspendTimeout: until when it waits.
    const wait = view.wait ?? null;
    return { result: shown, format: (value, color) => formatThreadRecord(value as ShownThread, color, wait) };
  }
  const expanded = await expandNode(store.objects, address as string);
  return { result: expanded, format: (value, color) => formatExpandedNode(value as typeof expanded, color) };
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
