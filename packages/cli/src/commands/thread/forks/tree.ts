import { buildFamilyTree, resolveThread } from "@uwf/engine";
import type { TreeResult } from "@uwf/protocol";
import { familyTreeToMermaid } from "../../../format/experiments/family-tree-to-mermaid.ts";
import { formatFamilyTree } from "../../../format/experiments/format-family-tree.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../../pipeline/command-outcome.ts";

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
  const thread = await resolveThread(store.refs, options.thread);
  const result: TreeResult = await buildFamilyTree(store, thread, {
    explorations: options.explorations === true,
  });
  if (options.mermaid === true) result.mermaid = familyTreeToMermaid(result);
  return {
    result,
    format: (value, color) => value.mermaid ?? formatFamilyTree(value, color),
    // The legend of the drawing's one mark, on stderr with the other notes: stdout stays the tree.
    ...(options.mermaid === true ? {} : { hint: `* marks ${result.thread}, the thread asked about` }),
  };
}
