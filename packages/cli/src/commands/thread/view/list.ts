import { listThreadViews } from "@uwf/engine";
import type { ListResult } from "@uwf/protocol";
import { formatThreadList } from "../../../format/thread/format-thread-list.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import { stdoutColumns } from "../../../terminal/standard-streams.ts";
import { type ListThreadsOptions, listEnvironment, listQueryOf } from "./list-query.ts";

export interface ListCommandOptions extends ListThreadsOptions {
  /** Every column, however wide the terminal (else the table fits it). */
  wide?: boolean;
}

/** Reads the ref store, plus each listed head to flag threads whose head is missing or corrupt (listThreadViews). */
export async function listCommand(options: ListCommandOptions, context: CommandContext) {
  const query = listQueryOf(options);
  const store = await context.openStore({ create: false });
  const result = await listThreadViews(store, query, listEnvironment(context));
  const shown = result.offset + result.threads.length;
  return {
    result,
    format: (value: ListResult, color: boolean) =>
      formatThreadList(value, color, { width: options.wide === true ? undefined : stdoutColumns(context.env) }),
    hint:
      shown < result.total || result.more === true
        ? `${shown} of ${result.total}${result.more === true ? "+" : ""} threads; more with --offset ${shown}, all with --limit 0`
        : undefined,
  };
}
