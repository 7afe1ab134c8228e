import type { Database } from "bun:sqlite";
import type { Schedule } from "@uwf/protocol";
import { ScheduleExistsError } from "../errors/schedule-exists-error.ts";
import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import { checkRecord } from "../refs/check-record.ts";
import { checkFireThread, checkSchedule, firedSchedule, fireMatches, updatedSchedule } from "../refs/check-schedule.ts";
import type { ScheduleRefs } from "../refs/schedule-refs.ts";
import { THREAD_COLUMNS, THREAD_PLACEHOLDERS, threadToRowValues } from "../refs/thread-rows.ts";

/**
 * The schedules of a SQLite ref store: one row each, the whole record as JSON and its next fire time
 * apart. A fire reads and writes under SQLite's write lock (BEGIN IMMEDIATE), so of two processes firing
 * the same time the second finds it moved.
 */
export function createSqliteScheduleMethods(database: Database): ScheduleRefs {
  const select = database.query<{ record: string }, [string]>("SELECT record FROM schedules WHERE name = ?");
  const write = database.query(
    `INSERT INTO schedules (name, record, next_fire_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET record = excluded.record, next_fire_at = excluded.next_fire_at`,
  );
  const read = (name: string): Schedule | null => {
    const row = select.get(name);
    return row === null ? null : (JSON.parse(row.record) as Schedule);
  };
  const store = (schedule: Schedule) => write.run(schedule.name, JSON.stringify(schedule), schedule.nextFireAt);
  return {
    async createSchedule(schedule) {
      const checked = await checkSchedule(schedule);
      const { changes } = database
        .query("INSERT INTO schedules (name, record, next_fire_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING")
        .run(checked.name, JSON.stringify(checked), checked.nextFireAt);
      if (changes === 0) throw new ScheduleExistsError(checked.name);
    },
    async putSchedule(schedule) {
      store(await checkSchedule(schedule));
    },
    getSchedule: async (name) => read(name),
    listSchedules: async () =>
      database
        .query<{ record: string }, []>("SELECT record FROM schedules ORDER BY name")
        .all()
        .map((row) => JSON.parse(row.record) as Schedule),
    async updateSchedule(name, expectedUpdatedAt, update) {
      const current = read(name);
      if (current === null || current.updatedAt !== expectedUpdatedAt) return false;
      const next = await updatedSchedule(current, update);
      // The compare-and-swap, under the write lock: the stored record must still be the one read.
      return database
        .transaction(() => {
          if (select.get(name)?.record !== JSON.stringify(current)) return false;
          store(next);
          return true;
        })
        .immediate();
    },
    deleteSchedule: async (name) => database.query("DELETE FROM schedules WHERE name = ?").run(name).changes === 1,
    async fireSchedule(fire) {
      checkFireThread(fire);
      const thread = fire.thread === null ? null : await checkRecord("threadRecord", fire.thread);
      const current = read(fire.name);
      if (current === null || !fireMatches(current, fire)) return false;
      const next = await firedSchedule(current, fire);
      const insertThread = database.query(
        `INSERT INTO threads (${THREAD_COLUMNS}) VALUES (${THREAD_PLACEHOLDERS}) ON CONFLICT (id) DO NOTHING`,
      );
      return database
        .transaction(() => {
          // Read again under the write lock: another process may have fired it since.
          if (select.get(fire.name)?.record !== JSON.stringify(current)) return false;
          store(next);
          if (thread !== null && insertThread.run(...threadToRowValues(thread)).changes === 0) {
            throw new ThreadExistsError(thread.id);
          }
          return true;
        })
        .immediate();
    },
  };
}
