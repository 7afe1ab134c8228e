import { statSync } from "node:fs";
import { resolve } from "node:path";
import { parseAddress } from "@uwf/cas";
import {
  forkThreads,
  type ReplacementReply,
  registerWorkflowFile,
  resolveNodeOrThread,
  resolveThread,
  resolveWorkflow,
  settleParent,
} from "@uwf/engine";
import type { ForkResult, ForksResult, ThreadRecord } from "@uwf/protocol";
import { ForksInterruptedError } from "../../../errors/forks-interrupted-error.ts";
import { UsageError } from "../../../errors/usage-error.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { readInputFile } from "../../../read-input-file.ts";
import { type BudgetFlags, limitsFromFlags } from "../start/limits-from-flags.ts";
import { readReplyFolder } from "./read-reply-folder.ts";

export interface ForkCommandOptions extends BudgetFlags {
  /** A node address or a unique prefix of it, or a thread id or prefix: that thread is forked at its head. */
  reference: string;
  /** The thread a node address is forked from, when the user says. */
  from?: string;
  /** A reply file (one counterfactual fork), `-` for stdin, or a folder (one counterfactual fork per file). */
  output?: string;
  /** `--count N`: N forks at the node as it stands. */
  count?: number;
  /** Put the forks in the queue for `uwf worker`. */
  queue?: boolean;
  /** `--max-forks N`: the most forks this command may make (default MAX_FORKS_PER_COMMAND). */
  maxForks?: number;
  /** `--workflow FILE|NAME|ADDRESS`: continue on another workflow version. */
  workflow?: string;
}

/**
 * The most forks one `uwf fork` makes unless `--max-forks` allows more: a typo (`--count 100000`) or a
 * runaway folder should not fill the store before anyone notices.
 */
export const MAX_FORKS_PER_COMMAND = 1000;

/**
 * One fork, or many: `--count N` forks at the node N times, `--output DIR` makes one counterfactual
 * per file. Many forks print their ids one per line (for `uwf step -`), or one `forksResultSchema` document.
 * At most `--max-forks` (MAX_FORKS_PER_COMMAND) are made; Ctrl-C or SIGTERM stops between batches of
 * forks, printing those made and exiting 130 (ForksInterruptedError).
 */
export async function forkCommand(
  options: ForkCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<ForkResult | ForksResult>> {
  // Anything no thread id or address could start with is refused as a usage error before the store opens.
  if (options.reference.length === 13 || !/^[0-9a-z]+$/i.test(options.reference)) parseAddress(options.reference);
  if (options.count !== undefined && options.output !== undefined) {
    throw new UsageError(
      "--count makes forks at the node as it stands, --output replaces its reply (a folder gives one fork per file): give one",
      { count: options.count, output: options.output },
    );
  }
  const maxForks = options.maxForks ?? MAX_FORKS_PER_COMMAND;
  if (options.count !== undefined) checkForkCount(options.count, maxForks, `--count ${options.count}`);
  const folder = options.output !== undefined && options.output !== "-" && isFolder(options.output, context.cwd);
  const forks = await replacements(options, folder, context.cwd);
  if (folder) checkForkCount(forks.length, maxForks, `--output ${options.output} (${forks.length} files)`);
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
  // Stored before the fork, but a file's name points at it only once the fork is made.
  const onto =
    options.workflow === undefined
      ? undefined
      : await resolveWorkflow({
          store,
          reference: options.workflow,
          cwd: context.cwd,
          home: context.home,
          now: context.now,
          register: false,
        });
  const records = await forkThreads({
    store,
    address: address ?? (parent as ThreadRecord).head,
    parent,
    forks,
    limits: limitsFromFlags(options),
    queued: options.queue === true,
    now: context.now,
    newId: context.newId,
    signal: context.signal,
    ...(onto === undefined ? {} : { workflow: { address: onto.address, node: onto.workflow } }),
  });
  if (onto?.file != null && records.length > 0)
    await registerWorkflowFile({ store, file: onto.file, now: context.now });
  // A fork of a branch forks its parent too (waiting at the fan-out, the fork in the branch's place):
  // settled at once, so a parent whose branches have all ended is ready for its join, as after any branch's end.
  for (const record of records) {
    if (record.branchOf === undefined) continue;
    await settleParent(record.branchOf.thread, {
      store,
      home: context.home,
      host: context.host,
      now: context.now,
      newId: context.newId,
    });
  }
  const results = records.map(
    (record): ForkResult => ({
      thread: record.id,
      forkedFrom: record.forkedFrom as ForkResult["forkedFrom"],
      head: record.head,
      ...(record.forkedFrom?.workflow === undefined ? {} : { workflow: record.workflowAddress }),
    }),
  );
  // Stopped between batches: what was made is printed, then the interruption is reported.
  const error =
    records.length < forks.length
      ? new ForksInterruptedError(String(context.signal.reason), records.length, forks.length)
      : undefined;
  if (options.count === undefined && !folder && error === undefined) {
    return { result: results[0] as ForkResult, format: formatForks };
  }
  return { result: { forks: results }, format: formatForks, ...(error === undefined ? {} : { error }) };
}

/** Refuses more forks than `--max-forks` allows (exit 2), before anything is written. */
function checkForkCount(count: number, maxForks: number, what: string): void {
  if (count <= maxForks) return;
  throw new UsageError(
    `${what} asks for more forks than the ${maxForks} one command makes; give --max-forks ${count} to make them`,
    { count, maxForks },
  );
}

/** What each fork replaces the reply with: nothing (`--count`, or one plain fork), a file, stdin, or a folder's files. */
async function replacements(
  options: ForkCommandOptions,
  folder: boolean,
  cwd: string,
): Promise<Array<ReplacementReply | null>> {
  if (options.output === undefined) return Array.from({ length: options.count ?? 1 }, () => null);
  if (folder) return readReplyFolder(options.output, cwd);
  const text = await readInputFile(options.output, { cwd, label: `--output ${options.output}` });
  return [{ file: options.output === "-" ? "stdin" : options.output, text }];
}

function isFolder(path: string, cwd: string): boolean {
  return statSync(resolve(cwd, path), { throwIfNoEntry: false })?.isDirectory() === true;
}

/** The new thread ids, one per line. */
function formatForks(result: ForkResult | ForksResult): string {
  return "forks" in result ? result.forks.map((fork) => fork.thread).join("\n") : result.thread;
}
