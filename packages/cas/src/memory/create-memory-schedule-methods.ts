import type { Schedule, ThreadRecord } from "@uwf/protocol";
import { ScheduleExistsError } from "../errors/schedule-exists-error.ts";
import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import { checkRecord } from "../refs/check-record.ts";
import { checkFireThread, checkSchedule, firedSchedule, fireMatches, updatedSchedule } from "../refs/check-schedule.ts";
import type { ScheduleRefs } from "../refs/schedule-refs.ts";

/** The schedules of a memory ref store, in a Map by name; `threads` is the store's, where a fire creates its thread. */
export function createMemoryScheduleMethods(threads: Map<string, ThreadRecord>): ScheduleRefs {
  const schedules = new Map<string, Schedule>();
  return {
    async createSchedule(schedule) {
      const checked = await checkSchedule(schedule);
      if (schedules.has(checked.name)) throw new ScheduleExistsError(checked.name);
      schedules.set(checked.name, checked);
    },
    async putSchedule(schedule) {
      const checked = await checkSchedule(schedule);
      schedules.set(checked.name, checked);
    },
    getSchedule: async (name) => {
      const schedule = schedules.get(name);
      return schedule === undefined ? null : structuredClone(schedule);
    },
    listSchedules: async () =>
      [...schedules.values()]
        .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
        .map((schedule) => structuredClone(schedule)),
    async updateSchedule(name, expectedUpdatedAt, update) {
      const current = schedules.get(name);
      if (current === undefined || current.updatedAt !== expectedUpdatedAt) return false;
      schedules.set(name, await updatedSchedule(current, update));
      return true;
    },
    deleteSchedule: async (name) => schedules.delete(name),
    async fireSchedule(fire) {
      checkFireThread(fire);
      const thread = fire.thread === null ? null : await checkRecord("threadRecord", fire.thread);
      const current = schedules.get(fire.name);
      if (current === undefined || !fireMatches(current, fire)) return false;
      const next = await firedSchedule(current, fire);
      // Checked again after the awaits: another fire in this process may have moved it meanwhile.
      if (schedules.get(fire.name) !== current) return false;
      if (thread !== null && threads.has(thread.id)) throw new ThreadExistsError(thread.id);
      schedules.set(fire.name, next);
      if (thread !== null) threads.set(thread.id, thread);
      return true;
    },
  };
}
