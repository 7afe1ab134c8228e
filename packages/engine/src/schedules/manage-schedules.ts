import { resolve } from "node:path";
import type { ScheduleRefs, Store, StoreClock } from "@uwf/cas";
import type { Schedule, WorkflowNode } from "@uwf/protocol";
import { validateStartInputs } from "@uwf/workflow";
import { ScheduleNotFoundError } from "../errors/schedule-not-found-error.ts";
import { resolveWorkflow } from "../workflows/resolve-workflow.ts";
import {
  buildSchedule,
  COMMAND_FIELD_NAMES,
  nextFireAfter,
  type ScheduleInput,
  WORKFLOW_FIELD_NAMES,
} from "./build-schedule.ts";

export interface AddScheduleOptions {
  store: Store;
  schedule: Omit<ScheduleInput, "source">;
  /** Where a relative workflow path is resolved (and made absolute, so the schedule fires from anywhere). */
  cwd: string;
  home: string;
  now(): Date;
}

/**
 * `uwf schedule add`: checks the schedule (InvalidScheduleError), that its workflow resolves now
 * (WorkflowNotFoundError) and takes its inputs (InvalidInputsError), then creates it
 * (ScheduleExistsError when the name is taken). A workflow file is kept as an absolute path, read
 * again at each fire; a name is looked up at each fire.
 */
export async function addSchedule(options: AddScheduleOptions): Promise<Schedule> {
  const { store, cwd } = options;
  const reference = options.schedule.workflow;
  const looksLikeFile = /\.(ya?ml)$/i.test(reference) || reference.includes("/");
  const workflow = looksLikeFile ? resolve(cwd, reference) : reference;
  const now = await store.refs.clock();
  const schedule = buildSchedule({ ...options.schedule, workflow, source: "command" }, now, COMMAND_FIELD_NAMES);
  const resolved = await resolveWorkflow({ ...options, reference: workflow });
  validateStartInputs(resolved.workflow, schedule.inputs);
  await store.refs.createSchedule(schedule);
  return schedule;
}

/** The schedule of this name, or ScheduleNotFoundError listing the names there are. */
export async function getScheduleOrThrow(refs: ScheduleRefs, name: string): Promise<Schedule> {
  const schedule = await refs.getSchedule(name);
  if (schedule !== null) return schedule;
  const known = (await refs.listSchedules()).map((entry) => entry.name);
  throw new ScheduleNotFoundError(name, known);
}

/**
 * `uwf schedule pause` and `resume`: a paused schedule has no next fire time (and fires only by
 * `trigger`); resumed, it is next due at the cron's first time after now (fires missed meanwhile are not
 * caught up). A compare-and-swap, tried again when a fire moved the schedule meanwhile.
 */
export async function setSchedulePaused(
  refs: ScheduleRefs & StoreClock,
  name: string,
  paused: boolean,
): Promise<Schedule> {
  for (;;) {
    const current = await getScheduleOrThrow(refs, name);
    if (current.paused === paused) return current;
    const now = await refs.clock();
    const update = {
      paused,
      nextFireAt: paused ? null : nextFireAfter(current, now),
      updatedAt: laterThan(current.updatedAt, now),
    };
    if (await refs.updateSchedule(name, current.updatedAt, update)) return { ...current, ...update };
  }
}

/** `uwf schedule rm`: the threads it started stay. */
export async function removeSchedule(refs: ScheduleRefs, name: string): Promise<void> {
  if (!(await refs.deleteSchedule(name))) await getScheduleOrThrow(refs, name);
}

export interface RegisterWorkflowScheduleOptions {
  store: Store;
  workflow: WorkflowNode;
  now(): Date;
}

/** What `uwf workflow add` did with the workflow's `schedule:`. */
export type WorkflowScheduleChange =
  | { kind: "none" }
  | { kind: "registered" | "updated" | "unchanged" | "removed"; schedule: string }
  /** A schedule of the workflow's name was made by `uwf schedule add`: it is left as it is. */
  | { kind: "taken"; schedule: string };

/**
 * `uwf workflow add`: registers the workflow's `schedule:` as the schedule named after the workflow (source
 * `workflow`), replacing the one an earlier version registered (keeping whether it is paused and what it
 * fired; its next fire time is kept while the cron and time zone are), and removes it when the workflow no
 * longer declares one. A schedule of that name that `uwf schedule add` made is left alone.
 */
export async function registerWorkflowSchedule(
  options: RegisterWorkflowScheduleOptions,
): Promise<WorkflowScheduleChange> {
  const { store, workflow } = options;
  const name = workflow.name;
  const existing = await store.refs.getSchedule(name);
  if (existing !== null && existing.source === "command") {
    return workflow.schedule === undefined ? { kind: "none" } : { kind: "taken", schedule: name };
  }
  if (workflow.schedule === undefined) {
    if (existing === null) return { kind: "none" };
    await store.refs.deleteSchedule(name);
    return { kind: "removed", schedule: name };
  }
  const declared = workflow.schedule;
  const now = await store.refs.clock();
  const built = buildSchedule(
    {
      name,
      workflow: name,
      cron: declared.cron,
      tz: declared.tz ?? null,
      prompt: declared.prompt ?? "",
      inputs: declared.inputs ?? {},
      overlap: declared.overlap ?? "skip",
      catchUp: declared.catchUp ?? null,
      queue: declared.queue === true,
      source: "workflow",
    },
    now,
    WORKFLOW_FIELD_NAMES,
  );
  if (existing === null) {
    await store.refs.putSchedule(built);
    return { kind: "registered", schedule: name };
  }
  const sameTimes = existing.cron === built.cron && existing.tz === built.tz;
  const replaced: Schedule = {
    ...built,
    paused: existing.paused,
    nextFireAt: existing.paused ? null : sameTimes ? existing.nextFireAt : built.nextFireAt,
    lastFireAt: existing.lastFireAt,
    lastThread: existing.lastThread,
    buffered: existing.buffered,
    createdAt: existing.createdAt,
    updatedAt: existing.updatedAt,
  };
  if (JSON.stringify(replaced) === JSON.stringify(existing)) return { kind: "unchanged", schedule: name };
  await store.refs.putSchedule({ ...replaced, updatedAt: laterThan(existing.updatedAt, now) });
  return { kind: "updated", schedule: name };
}

/** `now` as ISO 8601, or a millisecond after `previous` when the clock has not moved past it (a CAS token must change). */
export function laterThan(previous: string, now: Date): string {
  const after = Date.parse(previous) + 1;
  return new Date(Math.max(now.getTime(), after)).toISOString();
}
