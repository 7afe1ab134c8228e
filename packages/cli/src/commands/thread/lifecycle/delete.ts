import { deleteThread, listBranchFamily, resolveThread, ThreadBusyError, ThreadNotFoundError } from "@uwf/engine";
import type { DeleteResult } from "@uwf/protocol";
import { UsageError } from "../../../errors/usage-error.ts";
import { EXIT_BUSY, EXIT_FAILED, EXIT_OK } from "../../../exit-codes.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";

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
    let branches = 0;
    for (const thread of threads) branches += (await listBranchFamily(store, thread.id)).length;
    const withBranches = branches === 0 ? "" : ` and their ${branches} branch thread(s)`;
    const answer = await prompts.confirm({
      message: `Delete ${threads.length} thread(s): ${names}${withBranches}? Their nodes go at the next \`uwf cas gc\`.`,
      initialValue: false,
      output: process.stderr,
    });
    if (prompts.isCancel(answer) || answer !== true) {
      const result: DeleteResult = { deleted: [], busy: [] };
      return { result, format: () => "nothing deleted", exitCode: EXIT_FAILED };
    }
  }
  const result: DeleteResult = { deleted: [], busy: [] };
  const done = new Set<string>();
  const deleteOne = async (threadId: string): Promise<boolean> => {
    if (done.has(threadId)) return true;
    done.add(threadId);
    try {
      const record = await deleteThread({ store, threadId, host: context.host, now: context.now });
      result.deleted.push({ thread: record.id, head: record.head });
      return true;
    } catch (error) {
      if (error instanceof ThreadNotFoundError) return true;
      if (!(error instanceof ThreadBusyError)) throw error;
      result.busy.push({ thread: threadId, message: error.message });
      return false;
    }
  };
  for (const thread of threads) {
    // A fan-out's parent goes with its branches (nested ones too), the deepest first: no branch is left
    // naming a parent that is gone. A branch being stepped keeps the parent too (both reported busy).
    let branchesGone = true;
    for (const branch of await listBranchFamily(store, thread.id))
      branchesGone = (await deleteOne(branch)) && branchesGone;
    if (branchesGone) await deleteOne(thread.id);
    else {
      done.add(thread.id);
      result.busy.push({
        thread: thread.id,
        message: `thread ${thread.id} keeps a branch another process is stepping`,
      });
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
