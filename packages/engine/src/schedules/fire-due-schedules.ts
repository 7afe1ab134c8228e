import type { Store } from "@uwf/cas";
import {
  type BudgetLimits,
  type Config,
  messageOf,
  parseDuration,
  type Schedule,
  type ScheduleFiredEvent,
  type ThreadRecord,
} from "@uwf/protocol";

// The cron parser and the thread start (workflow resolution, inputs' checks) are loaded only when a schedule
// is due: a pass with nothing due (every idle worker round, most `uwf tick`s) compares times alone.
const nextFireAfter = async (...args: Parameters<typeof import("./build-schedule.ts").nextFireAfter>) =>
  (await import("./build-schedule.ts")).nextFireAfter(...args);

/** A fire as fireDueSchedules reports it: the `schedule-fired` event without its type. */
export type ScheduleFire = Omit<ScheduleFiredEvent, "type">;

export interface FireSchedulesOptions {
  /** The time the round takes as now instead of the store's clock (`uwf tick --at`). */
  at?: Date;
  store: Store;
  /** The config, or how to load it: called only when a thread is started (`uwf tick` reads no config.yaml for nothing). */
  config: Config | (() => Promise<Config>);
  /** Where the threads' agents run: the firing process's directory. */
  cwd: string;
  home: string;
  now(): Date;
  newId(): string;
  /** Start every thread queued for workers (a worker's fires); else only those of `queue` schedules. */
  queued: boolean;
  /** The budget flags' limits, as `uwf start` takes them; default none. */
  limits?: Partial<BudgetLimits>;
}

/** Statuses in which a schedule's last thread still runs, for its overlap policy. */
const RUNNING: ReadonlySet<ThreadRecord["status"]> = new Set(["active", "waiting", "suspended"]);

/** At most this many fire times of one schedule in one pass (a cron of seconds left for a day). */
const MAX_FIRES_PER_PASS = 100;

/**
 * One round of the schedules' due work (`uwf worker` each poll, `uwf tick` once), on the store's clock:
 * every unpaused schedule whose next fire time has come fires it, and a `buffer-one` fire held back is
 * started once the last thread stopped. Each fire is a compare-and-swap on the schedule's next fire time
 * (RefStore.fireSchedule), so however many processes run this at once, a fire time starts at most one
 * thread, and the process that loses the swap reports nothing for it.
 *
 * Missed fire times (no process ran for a while): those older than `now - catchUp` are skipped (one
 * `missed` fire stands for them), the others fire one by one; without `catchUp` only the latest fires.
 * Overlap, when the last thread still runs (active, waiting or suspended): `skip` starts nothing, `allow`
 * starts another, `buffer-one` holds one fire back until it stops. A workflow that cannot be resolved,
 * or inputs it refuses, fail that fire (reported, `failed`) and the schedule moves on.
 */
export async function fireDueSchedules(options: FireSchedulesOptions): Promise<ScheduleFire[]> {
  const now = options.at ?? (await options.store.refs.clock());
  const fires: ScheduleFire[] = [];
  for (const listed of await options.store.refs.listSchedules()) {
    if (listed.paused) continue;
    let schedule: Schedule | null = listed;
    for (let round = 0; schedule !== null && round < MAX_FIRES_PER_PASS; round++) {
      const fire = await fireOnce(schedule, now, options);
      if (fire === "nothing-due") break;
      if (fire !== "lost") fires.push(fire);
      schedule = await options.store.refs.getSchedule(listed.name);
      if (schedule?.paused === true) break;
    }
  }
  return fires;
}

export interface TriggerScheduleOptions extends FireSchedulesOptions {
  name: string;
}

/**
 * `uwf schedule trigger`: fires the schedule now, outside its cron (paused or not), fire time = now; its
 * next fire time stays. Its overlap policy applies as to any fire.
 */
export async function triggerSchedule(options: TriggerScheduleOptions): Promise<ScheduleFire> {
  const { getScheduleOrThrow } = await import("./manage-schedules.ts");
  for (;;) {
    const schedule = await getScheduleOrThrow(options.store.refs, options.name);
    const now = await options.store.refs.clock();
    const fire = await fireAt(schedule, now.toISOString(), schedule.nextFireAt, options);
    if (fire !== "lost") return fire;
  }
}

/** The schedule's one next piece of due work: a buffered fire to start, or its next fire time. */
async function fireOnce(
  schedule: Schedule,
  now: Date,
  options: FireSchedulesOptions,
): Promise<ScheduleFire | "lost" | "nothing-due"> {
  if (schedule.buffered !== null && !(await lastThreadRuns(schedule, options.store))) {
    return startThread(schedule, schedule.buffered, options, {
      expectedBuffered: schedule.buffered,
      nextFireAt: schedule.nextFireAt,
      buffered: null,
    });
  }
  if (schedule.nextFireAt === null || Date.parse(schedule.nextFireAt) > now.getTime()) return "nothing-due";
  // The fire times due by now, oldest first (bounded: a seconds cron left for long).
  const due: string[] = [schedule.nextFireAt];
  for (let next = await nextFireAfter(schedule, new Date(schedule.nextFireAt)); next !== null; ) {
    if (Date.parse(next) > now.getTime() || due.length >= MAX_FIRES_PER_PASS) break;
    due.push(next);
    next = await nextFireAfter(schedule, new Date(next));
  }
  const catchUpMs = schedule.catchUp === null ? null : parseDuration(schedule.catchUp);
  const oldest = catchUpMs === null ? null : now.getTime() - catchUpMs;
  const fireTime = oldest === null ? due.at(-1) : due.find((time) => Date.parse(time) >= oldest);
  if (fireTime === undefined) {
    // Every due time is older than the catch-up window: one `missed` fire moves past them all.
    const latest = due.at(-1) as string;
    const moved = await options.store.refs.fireSchedule({
      name: schedule.name,
      expectedNextFireAt: schedule.nextFireAt,
      nextFireAt: await nextFireAfter(schedule, new Date(latest)),
      fireTime: latest,
      thread: null,
      updatedAt: options.now().toISOString(),
    });
    return moved ? report(schedule, latest, null, false, options, { skipped: "missed" }) : "lost";
  }
  return fireAt(schedule, fireTime, await nextFireAfter(schedule, new Date(fireTime)), options);
}

/** Fires `fireTime`, moving the schedule's next fire time to `nextFireAt`, by its overlap policy. */
async function fireAt(
  schedule: Schedule,
  fireTime: string,
  nextFireAt: string | null,
  options: FireSchedulesOptions,
): Promise<ScheduleFire | "lost"> {
  const advance = async (buffered: string | null | undefined, skipped: "overlap" | "buffered") => {
    const moved = await options.store.refs.fireSchedule({
      name: schedule.name,
      expectedNextFireAt: schedule.nextFireAt,
      expectedBuffered: schedule.buffered,
      nextFireAt,
      fireTime,
      ...(buffered === undefined ? {} : { buffered }),
      thread: null,
      updatedAt: options.now().toISOString(),
    });
    return moved ? report(schedule, fireTime, null, false, options, { skipped }) : "lost";
  };
  if (schedule.overlap !== "allow" && (await lastThreadRuns(schedule, options.store))) {
    if (schedule.overlap === "buffer-one" && schedule.buffered === null) return advance(fireTime, "buffered");
    return advance(undefined, "overlap");
  }
  return startThread(schedule, fireTime, options, { nextFireAt });
}

/** Starts the schedule's thread for `fireTime` in the fire's compare-and-swap; a failed start still moves the schedule. */
async function startThread(
  schedule: Schedule,
  fireTime: string,
  options: FireSchedulesOptions,
  swap: { nextFireAt: string | null; expectedBuffered?: string | null; buffered?: string | null },
): Promise<ScheduleFire | "lost"> {
  const queued = options.queued || schedule.queue;
  const base = {
    name: schedule.name,
    expectedNextFireAt: schedule.nextFireAt,
    expectedBuffered: swap.expectedBuffered ?? schedule.buffered,
    nextFireAt: swap.nextFireAt,
    fireTime,
    ...(swap.buffered === undefined ? {} : { buffered: swap.buffered }),
    updatedAt: options.now().toISOString(),
  };
  let thread: ThreadRecord;
  try {
    const { planThreads } = await import("../thread/start-thread.ts");
    const config = typeof options.config === "function" ? await options.config() : options.config;
    const [planned] = await planThreads({
      store: options.store,
      config,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      workflowReference: schedule.workflow,
      starts: [{ prompt: schedule.prompt, inputs: schedule.inputs }],
      queued,
      cwd: options.cwd,
      home: options.home,
      now: options.now,
      newId: options.newId,
    });
    thread = { ...(planned as ThreadRecord), scheduledBy: { schedule: schedule.name, fireTime } };
  } catch (error) {
    const moved = await options.store.refs.fireSchedule({ ...base, thread: null });
    return moved
      ? report(schedule, fireTime, null, false, options, { skipped: "failed", problem: messageOf(error) })
      : "lost";
  }
  if (!(await options.store.refs.fireSchedule({ ...base, thread }))) return "lost";
  const { indexThreadWords, startSearchTexts } = await import("../search/index-thread-words.ts");
  await indexThreadWords(options.store, thread.id, startSearchTexts(schedule.prompt, schedule.inputs));
  return report(schedule, fireTime, thread.id, queued, options, {});
}

async function lastThreadRuns(schedule: Schedule, store: Store): Promise<boolean> {
  if (schedule.lastThread === null) return false;
  const last = await store.refs.getThread(schedule.lastThread);
  return last !== null && RUNNING.has(last.status);
}

function report(
  schedule: Schedule,
  fireTime: string,
  thread: string | null,
  queued: boolean,
  options: FireSchedulesOptions,
  extra: Pick<ScheduleFire, "skipped" | "problem">,
): ScheduleFire {
  return { thread, schedule: schedule.name, fireTime, ...extra, queued, at: options.now().toISOString() };
}
