import type { TreeResult } from "@uwf/protocol";
import { familyTreeToMermaid } from "../../../format/experiments/family-tree-to-mermaid.ts";
import { formatFamilyTree } from "../../../format/experiments/format-family-tree.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";
import { readThreadTree } from "../view/thread-view-reads.ts";

export interface TreeCommandOptions {
  thread: string;
  mermaid?: boolean;
  /** Also the forks explorations made (`uwf explore`), which are left out otherwise. */
  explorations?: boolean;
}

/** The thread's whole family, from its root original: each fork under the step it branched at. */
export async function treeCommand(
  options: TreeCommandOptions,
  context: CommandContext,
): Promise<CommandOutcome<TreeResult>> {
  const store = await context.openStore({ create: false });
  const result: TreeResult = await readThreadTree(store, options);
  if (options.mermaid === true) result.mermaid = familyTreeToMermaid(result);
  return {
    result,
    format: (value, color) => value.mermaid ?? formatFamilyTree(value, color),
    // The legend of the drawing's one mark, on stderr with the other notes: stdout stays the tree.
    ...(options.mermaid === true ? {} : { hint: `* marks ${result.thread}, the thread asked about` }),
  };
}
