import type { Schedule } from "@uwf/protocol";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { FireSchedule, ScheduleUpdate } from "./schedule-refs.ts";

/*
 * What every backend checks before it persists a schedule, and how a fire or an update changes one:
 * written once, so the three backends keep the same schedules.
 */

/** A copy of the schedule as scheduleSchema accepts it, or InvalidRecordError listing every problem. */
export async function checkSchedule(schedule: Schedule): Promise<Schedule> {
  // Loaded here, not at import: every store open builds the schedule methods, and a step must not load
  // the schema library for them (issue 43).
  const { parseSchedule } = await import("./parse-schedule.ts");
  const result = parseSchedule(schedule);
  if (result.success) return result.data;
  throw new InvalidRecordError("schedule", problemsOf(result.error.issues));
}

/** The schedule with `update` applied, checked as a whole. */
export async function updatedSchedule(current: Schedule, update: ScheduleUpdate): Promise<Schedule> {
  const { name: _name, createdAt: _createdAt, ...fields } = update as Schedule;
  return checkSchedule({ ...current, ...fields });
}

/** Whether a stored schedule is the one a fire expects: its next fire time, and its `buffered` when named. */
export function fireMatches(current: Schedule, fire: FireSchedule): boolean {
  if (current.nextFireAt !== fire.expectedNextFireAt) return false;
  return fire.expectedBuffered === undefined || current.buffered === fire.expectedBuffered;
}

/** The schedule after a fire: its next fire time moved, `buffered` set when given, the thread it started. */
export async function firedSchedule(current: Schedule, fire: FireSchedule): Promise<Schedule> {
  const next: Schedule = { ...current, nextFireAt: fire.nextFireAt, updatedAt: fire.updatedAt };
  if (fire.buffered !== undefined) next.buffered = fire.buffered;
  if (fire.thread !== null) {
    next.lastFireAt = fire.fireTime;
    next.lastThread = fire.thread.id;
  }
  return checkSchedule(next);
}

/** A thread a fire creates must say it was: `scheduledBy` naming this schedule and fire time. */
export function checkFireThread(fire: FireSchedule): void {
  const scheduledBy = fire.thread?.scheduledBy;
  if (fire.thread === null) return;
  if (scheduledBy?.schedule !== fire.name || scheduledBy.fireTime !== fire.fireTime) {
    throw new InvalidRecordError("schedule fire", [
      `thread.scheduledBy: expected { schedule: ${fire.name}, fireTime: ${fire.fireTime} }`,
    ]);
  }
}

function problemsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string[] {
  return issues.map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`);
}
