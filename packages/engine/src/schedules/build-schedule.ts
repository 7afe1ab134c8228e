import { type OverlapPolicy, parseDuration, type Schedule } from "@uwf/protocol";
import { checkCron, nextCronTime } from "@uwf/workflow";
import { InvalidScheduleError } from "../errors/invalid-schedule-error.ts";

/** What a schedule is made of, as `uwf schedule add` or a workflow's `schedule:` gives it. */
export interface ScheduleInput {
  name: string;
  /** A registry name, or a file path made absolute. */
  workflow: string;
  cron: string;
  tz?: string | null;
  prompt?: string;
  inputs?: Record<string, unknown>;
  overlap?: OverlapPolicy;
  catchUp?: string | null;
  queue?: boolean;
  source: Schedule["source"];
}

/** How the caller names each field in an error: `--cron` for the command, `schedule.cron` for a file. */
export interface ScheduleFieldNames {
  cron: string;
  tz: string;
  catchUp: string;
}

export const COMMAND_FIELD_NAMES: ScheduleFieldNames = { cron: "--cron", tz: "--tz", catchUp: "--catch-up" };
export const WORKFLOW_FIELD_NAMES: ScheduleFieldNames = {
  cron: "schedule.cron",
  tz: "schedule.tz",
  catchUp: "schedule.catchUp",
};

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * A new schedule, due next at the cron's first time after `now`; InvalidScheduleError naming the field
 * (as `names` calls it) for a name, cron expression, time zone or catch-up that cannot be used.
 */
export function buildSchedule(input: ScheduleInput, now: Date, names: ScheduleFieldNames): Schedule {
  checkScheduleInput(input, names);
  const at = now.toISOString();
  const tz = input.tz ?? null;
  return {
    name: input.name,
    workflow: input.workflow,
    cron: input.cron,
    tz,
    prompt: input.prompt ?? "",
    inputs: input.inputs ?? {},
    overlap: input.overlap ?? "skip",
    catchUp: input.catchUp ?? null,
    queue: input.queue === true,
    paused: false,
    source: input.source,
    nextFireAt: nextFireAfter({ cron: input.cron, tz }, now),
    lastFireAt: null,
    lastThread: null,
    buffered: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** The first time after `after` that the schedule is due (ISO 8601); null when it never is again. */
export function nextFireAfter(schedule: Pick<Schedule, "cron" | "tz">, after: Date): string | null {
  return nextCronTime(schedule.cron, schedule.tz, after)?.toISOString() ?? null;
}

function checkScheduleInput(input: ScheduleInput, names: ScheduleFieldNames): void {
  if (!NAME_PATTERN.test(input.name)) {
    throw new InvalidScheduleError(input.name, "name", "expected a name of letters, digits, '_', '.' and '-'");
  }
  const cron = checkCron(input.cron, input.tz ?? null);
  if (cron !== null) throw new InvalidScheduleError(input.name, names[cron.field], cron.problem);
  if (input.catchUp != null && parseDuration(input.catchUp) === null) {
    throw new InvalidScheduleError(
      input.name,
      names.catchUp,
      `"${input.catchUp}" is no duration (such as 90s, 15m, 2h or 1h30m)`,
    );
  }
}
