import { resolve } from "node:path";
import type { WorkflowAddResult } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { registerWorkflowFile } from "../../engine/resolve-workflow.ts";

/** Registers a workflow file: an unchanged file keeps its hash; a changed one moves the name, old threads keep theirs. */
export async function workflowAddCommand(options: { file: string }, context: CommandContext) {
  const store = await context.openStore();
  const registered = await registerWorkflowFile({ store, file: resolve(context.cwd, options.file), now: context.now });
  for (const warning of registered.warnings) context.warn(warning.message);
  const result: WorkflowAddResult = {
    name: registered.workflow.name,
    hash: registered.address,
    changed: registered.changed,
  };
  return {
    result,
    format: (value: WorkflowAddResult) => `${value.name} ${value.hash}${value.changed ? "" : " (unchanged)"}`,
  };
}
