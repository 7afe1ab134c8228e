import { resolve } from "node:path";
import { registerWorkflowFile, registerWorkflowSchedule } from "@uwf/engine";
import type { WorkflowAddResult } from "@uwf/protocol";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { STDIN_WORKFLOW, safeParseStdinWorkflow } from "./parse-stdin-workflow.ts";

/** Registers a workflow file (`-`: stdin): an unchanged file keeps its hash; a changed one moves the name, old threads keep theirs. */
export async function workflowAddCommand(options: { file: string }, context: CommandContext) {
  const parsed = options.file === "-" ? await safeParseStdinWorkflow(context.cwd) : undefined;
  if (parsed?.success === false) throw parsed.error;
  const file = parsed === undefined ? resolve(context.cwd, options.file) : STDIN_WORKFLOW;
  const store = await context.openStore();
  const registered = await registerWorkflowFile({ store, file, now: context.now, parsed: parsed?.value });
  for (const warning of registered.warnings) context.warn(warning.message);
  const schedule = await registerWorkflowSchedule({ store, workflow: registered.workflow, now: context.now });
  if (schedule.kind === "taken") {
    context.warn(
      `its schedule: was not registered: schedule ${schedule.schedule} was made by \`uwf schedule add\` (\`uwf schedule rm ${schedule.schedule}\`, then add the workflow again)`,
    );
  }
  const result: WorkflowAddResult = {
    name: registered.workflow.name,
    hash: registered.address,
    changed: registered.changed,
    ...(schedule.kind === "none" ? {} : { schedule: schedule.kind }),
  };
  return {
    result,
    format: (value: WorkflowAddResult) =>
      `${value.name} ${value.hash}${value.changed ? "" : " (unchanged)"}${
        value.schedule === undefined || value.schedule === "taken" || value.schedule === "unchanged"
          ? ""
          : `\nschedule ${value.name} ${value.schedule}`
      }`,
  };
}
