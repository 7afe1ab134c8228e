import { deleteThread, resolveThread, ThreadBusyError } from "@uwf/engine";
import type { DeleteResult } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import { EXIT_BUSY, EXIT_FAILED, EXIT_OK } from "../../exit-codes.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";

export interface DeleteOptions {
  threads: string[];
  yes?: boolean;
}

/**
 * Removes thread records (deleteThread): every thread named is found first, so a typo deletes nothing;
 * on a terminal the user confirms unless `--yes`, and without one `--yes` is required. A thread another
 * process is stepping is left (exit 75) and the others are deleted. Their nodes stay until the next
 * `uwf cas gc`, which collects those no other thread reaches.
 */
export async function deleteCommand(options: DeleteOptions, context: CommandContext) {
  const store = await context.openStore();
  const threads = [];
  for (const reference of new Set(options.threads)) threads.push(await resolveThread(store.refs, reference));
  if (options.yes !== true) {
    if (!process.stdin.isTTY || context.json) {
      throw new UsageError("uwf delete asks before deleting: give --yes to delete without a terminal to ask on", {
        threads: threads.map((thread) => thread.id),
      });
    }
    const prompts = await import("@clack/prompts");
    const names = threads.map((thread) => `${thread.id} (${thread.workflow}, ${thread.status})`).join(", ");
    const answer = await prompts.confirm({
      message: `Delete ${threads.length} thread(s): ${names}? Their nodes go at the next \`uwf cas gc\`.`,
      initialValue: false,
      output: process.stderr,
    });
    if (prompts.isCancel(answer) || answer !== true) {
      const result: DeleteResult = { deleted: [], busy: [] };
      return { result, format: () => "nothing deleted", exitCode: EXIT_FAILED };
    }
  }
  const result: DeleteResult = { deleted: [], busy: [] };
  for (const thread of threads) {
    try {
      const record = await deleteThread({ store, threadId: thread.id, host: context.host, now: context.now });
      result.deleted.push({ thread: record.id, head: record.head });
    } catch (error) {
      if (!(error instanceof ThreadBusyError)) throw error;
      result.busy.push({ thread: thread.id, message: error.message });
    }
  }
  return {
    result,
    format: (value: DeleteResult) =>
      [
        ...value.deleted.map((entry) => `deleted thread ${entry.thread} (its nodes go at the next \`uwf cas gc\`)`),
        ...value.busy.map((entry) => `not deleted: ${entry.message}`),
      ].join("\n"),
    exitCode: result.busy.length > 0 ? EXIT_BUSY : EXIT_OK,
  };
}
