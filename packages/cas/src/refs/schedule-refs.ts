import type { Schedule, ThreadRecord } from "@uwf/protocol";

/** Fields of a schedule that `updateSchedule` may change (pause, resume, a new time). */
export type ScheduleUpdate = Partial<Omit<Schedule, "name" | "createdAt">>;

/**
 * One fire of a schedule (see `ScheduleRefs.fireSchedule`): the compare-and-swap that moves its next fire time
 * from `expectedNextFireAt` to `nextFireAt`, and the thread it starts, if any.
 */
export interface FireSchedule {
  name: string;
  /** The next fire time the caller read (null: a paused schedule, fired by `uwf schedule trigger`). */
  expectedNextFireAt: string | null;
  /** When given, the swap also needs the schedule's `buffered` to be this (a buffered fire started once). */
  expectedBuffered?: string | null;
  /** The next fire time after this fire (null: never again). */
  nextFireAt: string | null;
  /** The fire time this fire is for: the thread's `scheduledBy.fireTime`, and the schedule's `lastFireAt` when a thread starts. */
  fireTime: string;
  /** `buffer-one`: the fire time to hold back (null clears it); absent leaves it as it is. */
  buffered?: string | null;
  /** The thread to create (its `scheduledBy` names this schedule and fire), or null to advance without one. */
  thread: ThreadRecord | null;
  /** The schedule's new `updatedAt` (ISO 8601). */
  updatedAt: string;
}

/** Schedules: cron rules, and the compare-and-swap that fires each fire time once. */
export interface ScheduleRefs {
  /** Inserts a new schedule; ScheduleExistsError (nothing changed) when its name is taken. */
  createSchedule(schedule: Schedule): Promise<void>;
  /** Inserts or replaces a schedule by name (a workflow's `schedule:`, `uwf store copy`). */
  putSchedule(schedule: Schedule): Promise<void>;
  getSchedule(name: string): Promise<Schedule | null>;
  /** Every schedule, by name. */
  listSchedules(): Promise<Schedule[]>;
  /**
   * Compare-and-swap on the schedule's `updatedAt`: applies `update` only when the stored schedule's
   * `updatedAt` is still `expectedUpdatedAt`; false (nothing changed) on a conflict or no such schedule.
   */
  updateSchedule(name: string, expectedUpdatedAt: string, update: ScheduleUpdate): Promise<boolean>;
  /** Removes a schedule (the threads it started stay); false when there is none. */
  deleteSchedule(name: string): Promise<boolean>;
  /**
   * Fires a schedule, in one transaction: when its next fire time is still `expectedNextFireAt` (and its
   * `buffered` is `expectedBuffered`, when given), moves it to `nextFireAt`, sets `buffered` when given,
   * and with a `thread` creates that record and sets `lastFireAt` and `lastThread`. False, changing
   * nothing, when another process moved it first (or the schedule is gone): so each fire time starts at
   * most one thread however many processes fire it. The thread's start node must be stored before.
   */
  fireSchedule(fire: FireSchedule): Promise<boolean>;
}
