import { registerWorkflowFile, resolveStoredWorkflow, startThread } from "@uwf/engine";
import type { StartResult } from "@uwf/protocol";
import { UsageError } from "../../../errors/usage-error.ts";
import type { CommandContext } from "../../../pipeline/command-context.ts";
import { type BudgetFlags, limitsFromFlags } from "./limits-from-flags.ts";
import { promptReadsStdin, readPrompt } from "./read-prompt.ts";
import { readStartInputs } from "./read-start-inputs.ts";
import { resolveThreadCwd } from "./resolve-thread-cwd.ts";

export interface StartCommandOptions extends BudgetFlags {
  workflow: string;
  /** `-p TEXT`, or `-p -` for stdin. */
  prompt?: string;
  /** `--prompt-file FILE` (`-` for stdin). */
  promptFile?: string;
  cwd?: string;
  /** `--input KEY=VALUE` (repeatable). */
  input?: string[];
  /** `--inputs FILE` (`-` for stdin). */
  inputs?: string;
  /** Leave the thread to `uwf worker`. */
  queue?: boolean;
}

export async function startCommand(options: StartCommandOptions, context: CommandContext) {
  // Checked before the store is opened: a bad --cwd writes nothing.
  const threadCwd = resolveThreadCwd(context.cwd, options.cwd);
  if (options.inputs === "-" && promptReadsStdin(options))
    throw new UsageError("stdin can be read once: give the prompt or --inputs from stdin, not both");
  const prompt = await readPrompt({ ...options, cwd: context.cwd });
  const inputs = await readStartInputs({ input: options.input, inputs: options.inputs, cwd: context.cwd });
  const store = await context.openStore();
  const workflowReference =
    context.storedWorkflowsOnly === true ? await storedWorkflowAddress(options.workflow, context) : options.workflow;
  const record = await startThread({
    store,
    config: await context.loadConfig(),
    limits: limitsFromFlags(options),
    workflowReference,
    prompt,
    threadCwd,
    queued: options.queue === true,
    inputs,
    cwd: context.cwd,
    home: context.home,
    now: context.now,
    newId: context.newId,
  });
  const result: StartResult = { thread: record.id, workflow: record.workflowAddress, head: record.head };
  return { result, format: (value: StartResult) => value.thread };
}

/**
 * For a request from elsewhere (`uwf mcp`): the workflow as the store names it (a registered name, an
 * address, a thread's workflow, a file of the home's `workflows/`, registered as `uwf start NAME` does),
 * as its address; never a path, which is "no workflow" whether or not the file exists.
 */
async function storedWorkflowAddress(reference: string, context: CommandContext): Promise<string> {
  const store = await context.openStore();
  const resolved = await resolveStoredWorkflow({ store, reference, home: context.home });
  if (resolved.file === null) return resolved.address;
  return (await registerWorkflowFile({ store, file: resolved.file, now: context.now })).address;
}
