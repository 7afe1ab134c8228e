import { loadHistory, readChain, resolveThread } from "@uwf/engine";
import type { ReadResult } from "@uwf/protocol";
import { formatTranscript } from "../../../format/thread/format-transcript.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";

export interface ReadCommandOptions {
  thread: string;
  quota?: number;
  /** `--no-pager` sets this to false: print, even when the transcript overflows the terminal. */
  pager?: boolean;
}

export const DEFAULT_READ_QUOTA = 40_000;

/**
 * A markdown transcript: the task, then each step (what it was told, what it reported, its body); the
 * newest steps are kept within the quota. On a terminal it overflows, it goes through the pager.
 */
export async function readCommand(options: ReadCommandOptions, context: CommandContext) {
  const store = await context.openStore({ create: false });
  const record = await resolveThread(store.refs, options.thread);
  const chain = await readChain(store, record.head);
  const history = await loadHistory(store.objects, chain);
  const transcript = formatTranscript({
    thread: record,
    task: chain.start.prompt,
    inputs: chain.start.inputs,
    steps: history,
    quota: options.quota ?? DEFAULT_READ_QUOTA,
  });
  const result: ReadResult = {
    thread: record.id,
    totalSteps: history.length,
    shownSteps: transcript.shownSteps,
    markdown: transcript.markdown,
  };
  return { result, format: (value: ReadResult) => value.markdown, paged: options.pager !== false };
}
