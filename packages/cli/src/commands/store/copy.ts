import { copyStore, maskStoreUrl } from "@uwf/cas";
import type { StoreCopyResult } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import { EXIT_FAILED, EXIT_OK } from "../../exit-codes.ts";
import { openStoreAt } from "../../home/open-store.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";

export interface StoreCopyOptions {
  /** `file` (the home's embedded store) or a PostgreSQL URL. */
  to: string;
  /** Default `file`. */
  from?: string;
}

/**
 * Copies the home's store (or `--from` another) into `--to`, typically a PostgreSQL server that
 * workers on several machines will share: idempotent, so it can be run again after more steps, and
 * checked at the end. Exits 1 when something could not be copied as it is (see the problems).
 */
export async function storeCopyCommand(options: StoreCopyOptions, context: CommandContext) {
  const from = options.from ?? "file";
  const to = options.to;
  if (from === to) throw new UsageError(`--from and --to name the same store (${maskStoreUrl(from)})`);
  const source = await openStoreAt(context.home, from, { create: false });
  let result: StoreCopyResult;
  try {
    const target = await openStoreAt(context.home, to, { create: true });
    try {
      const report = await copyStore(source, target, {
        // A line per 10,000 objects, so a large home shows it is moving without flooding the terminal.
        onProgress: (phase, done) => {
          if (phase === "objects" && done % 10_000 === 0) context.note(`${done} objects copied…`);
        },
      });
      result = { from: maskStoreUrl(from), to: maskStoreUrl(to), ok: report.problems.length === 0, ...report };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
  return {
    result,
    format: (value: StoreCopyResult) => {
      const { objects, workflows, schedules, threads } = value;
      return [
        ...value.problems.map((problem) => `${problem.kind} ${problem.subject}: ${problem.message}`),
        ...value.busy.map((thread) => `thread ${thread} was being stepped: copy again once its step is recorded`),
        `copied ${value.from} to ${value.to}`,
        `objects: ${objects.read} read, ${objects.written} put`,
        `workflows: ${workflows.copied} copied, ${workflows.unchanged} unchanged, ${workflows.kept} kept as the target had them`,
        `schedules: ${schedules.copied} copied, ${schedules.unchanged} unchanged, ${schedules.kept} kept as the target had them`,
        `threads: ${threads.created} created, ${threads.updated} updated, ${threads.unchanged} unchanged, ${threads.kept} kept as the target had them`,
        `chain indexes: ${value.chainIndexes}`,
        value.ok ? "verified: the target holds everything copied" : `${value.problems.length} problem(s)`,
      ].join("\n");
    },
    exitCode: result.ok ? EXIT_OK : EXIT_FAILED,
  };
}
