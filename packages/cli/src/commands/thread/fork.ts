import { parseAddress } from "@uwf/cas";
import type { ForkResult, ThreadRecord } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { forkThread } from "../../engine/fork-thread.ts";
import { resolveNodeOrThread } from "../../engine/resolve-node-or-thread.ts";
import { resolveThread } from "../../engine/resolve-thread.ts";
import { UsageError } from "../../errors/usage-error.ts";
import { readInputFile } from "../../read-input-file.ts";

export interface ForkCommandOptions {
  /** A node address or a unique prefix of it, or a thread id or prefix: that thread is forked at its head. */
  reference: string;
  /** The thread a node address is forked from, when the user says. */
  from?: string;
  output?: string;
}

export async function forkCommand(options: ForkCommandOptions, context: CommandContext) {
  // Anything no thread id or address could start with is refused as a usage error before the store opens.
  if (options.reference.length === 13 || !/^[0-9a-z]+$/i.test(options.reference)) parseAddress(options.reference);
  const replacementReply =
    options.output === undefined
      ? undefined
      : {
          file: options.output === "-" ? "stdin" : options.output,
          text: await readInputFile(options.output, { cwd: context.cwd, label: `--output ${options.output}` }),
        };
  const store = await context.openStore();
  // As `show` reads it (see resolveNodeOrThread).
  const { address, thread } = await resolveNodeOrThread(store, options.reference);
  if (thread !== null && options.from !== undefined) {
    throw new UsageError(`--from names the thread a node address is forked from; ${options.reference} is a thread`, {
      thread: options.reference,
    });
  }
  let parent: ThreadRecord | undefined;
  if (thread !== null) parent = thread;
  else if (options.from !== undefined) parent = await resolveThread(store.refs, options.from);
  const record = await forkThread({
    store,
    address: address ?? (parent as ThreadRecord).head,
    parent,
    replacementReply,
    now: context.now,
    newId: context.newId,
  });
  const result: ForkResult = {
    thread: record.id,
    forkedFrom: record.forkedFrom as ForkResult["forkedFrom"],
    head: record.head,
  };
  return { result, format: (value: ForkResult) => value.thread };
}
