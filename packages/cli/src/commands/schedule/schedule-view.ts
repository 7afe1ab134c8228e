import type { ThreadRefs } from "@uwf/cas";
import type { Schedule, ScheduleShowResult } from "@uwf/protocol";

/** How many of a schedule's threads `schedule show` lists (`list --schedule NAME` lists them all). */
const SHOWN_THREADS = 10;

/** The schedule with the threads it started, newest first, as `schedule show` (and add, pause, resume) give it. */
export async function scheduleView(refs: ThreadRefs, schedule: Schedule): Promise<ScheduleShowResult> {
  const { threads, total } = await refs.listThreads({ scheduledBy: schedule.name, limit: SHOWN_THREADS });
  return {
    ...schedule,
    threads: threads.map((thread) => ({
      id: thread.id,
      status: thread.status,
      fireTime: thread.scheduledBy?.fireTime ?? thread.createdAt,
      createdAt: thread.createdAt,
    })),
    threadCount: total,
  };
}

/** `schedule show`'s text: one field a line, then the threads it started. */
export function formatScheduleView(view: ScheduleShowResult): string {
  const rows: [string, string][] = [
    ["schedule", view.name],
    ["workflow", view.workflow],
    ["cron", `${view.cron} (${view.tz ?? "UTC"})`],
    ["state", view.paused ? "paused" : "active"],
    ["next fire", view.nextFireAt ?? "none"],
    ["last fire", view.lastFireAt ?? "never"],
    ["overlap", view.overlap],
    ["catch up", view.catchUp ?? "no (only the latest missed fire runs)"],
    ["queue", view.queue ? "yes (workers step its threads)" : "no (whoever fires it steps its threads)"],
    ["source", view.source === "workflow" ? "the workflow's schedule:" : "uwf schedule add"],
  ];
  if (view.buffered !== null) rows.push(["buffered", view.buffered]);
  if (view.prompt !== "") rows.push(["prompt", view.prompt]);
  if (Object.keys(view.inputs).length > 0) rows.push(["inputs", JSON.stringify(view.inputs)]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`);
  lines.push("", `threads (${view.threadCount}):`);
  if (view.threads.length === 0) lines.push("  none yet");
  for (const thread of view.threads)
    lines.push(`  ${thread.id}  ${thread.status.padEnd(9)}  fired for ${thread.fireTime}`);
  return lines.join("\n");
}

/** `schedule list`'s text: one line per schedule. */
export function formatScheduleList(schedules: readonly Schedule[]): string {
  if (schedules.length === 0) return "no schedules (uwf schedule add NAME WORKFLOW --cron EXPR)";
  const rows = [
    ["NAME", "WORKFLOW", "CRON", "NEXT", "LAST THREAD"],
    ...schedules.map((schedule) => [
      schedule.name,
      schedule.workflow,
      `${schedule.cron}${schedule.tz === null ? "" : ` ${schedule.tz}`}`,
      schedule.paused ? "paused" : (schedule.nextFireAt ?? "never"),
      schedule.lastThread ?? "-",
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
