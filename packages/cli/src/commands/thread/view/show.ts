import type { ExpandedNode, ShownThread, ShowResult, ShowTextResult } from "@uwf/protocol";
import { formatExpandedNode } from "../../../format/thread/format-expanded-node.ts";
import { formatThreadRecord } from "../../../format/thread/format-thread-record.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { showReference } from "./show-reference.ts";

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
  const shown = await showReference(store, options);
  switch (shown.kind) {
    case "text":
      return { result: shown.result, format: (value) => (value as ShowTextResult).text };
    case "thread":
      // A suspension with a suspendTimeout: until when it waits.
      return {
        result: shown.result,
        format: (value, color) => formatThreadRecord(value as ShownThread, color, shown.wait),
      };
    case "node":
      return { result: shown.result, format: (value, color) => formatExpandedNode(value as ExpandedNode, color) };
  }
}
