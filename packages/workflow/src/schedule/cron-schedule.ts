import { Cron } from "croner";

/** What is wrong with a schedule's cron expression or time zone: the field (`cron` or `tz`) and why. */
export interface CronProblem {
  field: "cron" | "tz";
  problem: string;
}

/**
 * Whether `cron` (five fields, or six with seconds first) in time zone `tz` (IANA; null: UTC) can be
 * used: parsed by croner, and due at least once from now. Null when it can.
 */
export function checkCron(cron: string, tz: string | null): CronProblem | null {
  if (tz !== null) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tz });
    } catch {
      return { field: "tz", problem: `"${tz}" is no IANA time zone (such as Europe/Berlin or UTC)` };
    }
  }
  let next: Date | null;
  try {
    next = parseCron(cron, tz).nextRun(new Date());
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^CronPattern: /, "") : String(error);
    return { field: "cron", problem: `"${cron}" is no cron expression: ${message}` };
  }
  if (next === null) return { field: "cron", problem: `"${cron}" is never due` };
  return null;
}

/**
 * The first time after `after` (strictly) that `cron` is due in time zone `tz` (null: UTC); null when
 * it is never due again. The expression must have passed checkCron.
 */
export function nextCronTime(cron: string, tz: string | null, after: Date): Date | null {
  return parseCron(cron, tz).nextRun(after);
}

function parseCron(cron: string, tz: string | null): Cron {
  // Paused: a Cron object that only computes times, never schedules a callback.
  return new Cron(cron, { paused: true, timezone: tz ?? "UTC", mode: "5-or-6-parts" });
}
