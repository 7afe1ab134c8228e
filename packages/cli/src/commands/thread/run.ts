import type { StepResult } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { startThread } from "../../engine/start-thread.ts";
import { stepCommand } from "./step.ts";

export interface RunCommandOptions {
  workflow: string;
  prompt: string;
  cwd?: string;
  maxSteps?: number;
  agent?: string;
  timeout?: number;
}

/** `start` then `step --all` (or up to `--max-steps`). */
export async function runCommand(options: RunCommandOptions, context: CommandContext) {
  const store = await context.openStore();
  const record = await startThread({
    store,
    workflowReference: options.workflow,
    prompt: options.prompt,
    threadCwd: options.cwd,
    cwd: context.cwd,
    home: context.home,
    now: context.now,
    newId: context.newId,
  });
  context.note(`thread ${record.id}`);
  const stepped = await stepCommand(
    {
      thread: record.id,
      all: options.maxSteps === undefined,
      steps: options.maxSteps,
      agent: options.agent,
      timeout: options.timeout,
    },
    context,
  );
  const result: StepResult = stepped.result;
  return { ...stepped, result };
}
