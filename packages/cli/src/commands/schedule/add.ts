import { addSchedule } from "@uwf/engine";
import { overlapPolicySchema, type ScheduleShowResult } from "@uwf/protocol";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { readPrompt } from "../thread/start/read-prompt.ts";
import { readStartInputs } from "../thread/start/read-start-inputs.ts";
import { formatScheduleView, scheduleView } from "./schedule-view.ts";

export interface ScheduleAddCommandOptions {
  name: string;
  workflow: string;
  cron: string;
  tz?: string;
  prompt?: string;
  promptFile?: string;
  input?: string[];
  overlap?: string;
  catchUp?: string;
  queue?: boolean;
}

/** `uwf schedule add NAME WORKFLOW --cron EXPR …`: checks it all (the workflow must resolve now), then saves it. */
export async function scheduleAddCommand(options: ScheduleAddCommandOptions, context: CommandContext) {
  const overlap = options.overlap === undefined ? undefined : overlapPolicySchema.safeParse(options.overlap);
  if (overlap !== undefined && !overlap.success) {
    throw new UsageError(`--overlap ${options.overlap}: expected one of ${overlapPolicySchema.options.join(", ")}`);
  }
  const prompt =
    options.prompt === undefined && options.promptFile === undefined
      ? ""
      : await readPrompt({ ...options, cwd: context.cwd });
  const inputs = await readStartInputs({ input: options.input, cwd: context.cwd });
  const store = await context.openStore();
  const schedule = await addSchedule({
    store,
    schedule: {
      name: options.name,
      workflow: options.workflow,
      cron: options.cron,
      tz: options.tz ?? null,
      prompt,
      inputs: inputs ?? {},
      overlap: overlap?.data ?? "skip",
      catchUp: options.catchUp ?? null,
      queue: options.queue === true,
    },
    cwd: context.cwd,
    home: context.home,
    now: context.now,
  });
  const result = await scheduleView(store.refs, schedule);
  return { result, format: (value: ScheduleShowResult) => formatScheduleView(value) };
}
