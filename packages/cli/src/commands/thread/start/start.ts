import { startThread } from "@uwf/engine";
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
  const record = await startThread({
    store,
    config: await context.loadConfig(),
    limits: limitsFromFlags(options),
    workflowReference: options.workflow,
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
