import type { Schedule } from "@uwf/protocol";
import { ScheduleExistsError } from "../errors/schedule-exists-error.ts";
import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import { checkRecord } from "../refs/check-record.ts";
import { checkFireThread, checkSchedule, firedSchedule, fireMatches, updatedSchedule } from "../refs/check-schedule.ts";
import type { ScheduleRefs } from "../refs/schedule-refs.ts";
import { THREAD_COLUMNS, THREAD_NUMBERED_PLACEHOLDERS, threadToRowValues } from "../refs/thread-rows.ts";
import type { PostgresConnection, PostgresQuery } from "./postgres-connection.ts";

/**
 * The schedules of a PostgreSQL ref store: one row each, the whole record as JSON and its next fire time
 * apart. A fire or an update locks the row (SELECT … FOR UPDATE) and checks it is still the one it read,
 * so of two processes firing the same time on any machines, the second waits, then finds it moved.
 */
export function createPostgresScheduleMethods(connection: PostgresConnection, schema: string): ScheduleRefs {
  const schedules = `"${schema}".schedules`;
  const threads = `"${schema}".threads`;
  const upsert = (query: PostgresQuery, schedule: Schedule) =>
    query(
      `INSERT INTO ${schedules} (name, record, next_fire_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET record = excluded.record, next_fire_at = excluded.next_fire_at`,
      [schedule.name, JSON.stringify(schedule), schedule.nextFireAt],
    );
  const read = async (query: PostgresQuery, name: string, lock: boolean): Promise<string | null> => {
    const [row] = await query<{ record: string }>(
      `SELECT record FROM ${schedules} WHERE name = $1${lock ? " FOR UPDATE" : ""}`,
      [name],
    );
    return row?.record ?? null;
  };
  return {
    async createSchedule(schedule) {
      const checked = await checkSchedule(schedule);
      const inserted = await connection.query(
        `INSERT INTO ${schedules} (name, record, next_fire_at) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO NOTHING RETURNING 1`,
        [checked.name, JSON.stringify(checked), checked.nextFireAt],
      );
      if (inserted.length === 0) throw new ScheduleExistsError(checked.name);
    },
    async putSchedule(schedule) {
      await upsert(connection.query, await checkSchedule(schedule));
    },
    async getSchedule(name) {
      const record = await read(connection.query, name, false);
      return record === null ? null : (JSON.parse(record) as Schedule);
    },
    async listSchedules() {
      const rows = await connection.query<{ record: string }>(`SELECT record FROM ${schedules} ORDER BY name`);
      return rows.map((row) => JSON.parse(row.record) as Schedule);
    },
    async updateSchedule(name, expectedUpdatedAt, update) {
      const record = await read(connection.query, name, false);
      if (record === null) return false;
      const current = JSON.parse(record) as Schedule;
      if (current.updatedAt !== expectedUpdatedAt) return false;
      const next = await updatedSchedule(current, update);
      return connection.transaction(async (query) => {
        if ((await read(query, name, true)) !== record) return false;
        await upsert(query, next);
        return true;
      });
    },
    async deleteSchedule(name) {
      const deleted = await connection.query(`DELETE FROM ${schedules} WHERE name = $1 RETURNING 1`, [name]);
      return deleted.length === 1;
    },
    async fireSchedule(fire) {
      checkFireThread(fire);
      const thread = fire.thread === null ? null : await checkRecord("threadRecord", fire.thread);
      const record = await read(connection.query, fire.name, false);
      if (record === null) return false;
      const current = JSON.parse(record) as Schedule;
      if (!fireMatches(current, fire)) return false;
      const next = await firedSchedule(current, fire);
      return connection.transaction(async (query) => {
        // Locked, then compared: a process that fired it meanwhile committed a record this one did not read.
        if ((await read(query, fire.name, true)) !== record) return false;
        await upsert(query, next);
        if (thread !== null) {
          const inserted = await query(
            `INSERT INTO ${threads} (${THREAD_COLUMNS}) VALUES (${THREAD_NUMBERED_PLACEHOLDERS})
             ON CONFLICT (id) DO NOTHING RETURNING 1`,
            threadToRowValues(thread),
          );
          // Thrown inside the transaction: the schedule's move is rolled back with it.
          if (inserted.length === 0) throw new ThreadExistsError(thread.id);
        }
        return true;
      });
    },
  };
}
