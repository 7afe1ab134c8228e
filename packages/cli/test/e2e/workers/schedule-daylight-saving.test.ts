/**
 * A schedule whose fire time falls in the hour a daylight-saving change repeats fires once, as the real
 * binary runs it: `uwf tick --at TIME` takes TIME as now, so a test (or a user catching up, or trying a
 * schedule ahead) ticks through the night of a change without waiting for it.
 */
import { describe, expect, it } from "bun:test";
import {
  errorResultSchema,
  listResultSchema,
  scheduleShowResultSchema,
  type TickResult,
  tickResultSchema,
} from "@uwf/protocol";
import { LINEAR, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();
const MINUTE = 60_000;

/**
 * The next night the United States fall back (the first Sunday of November: at 02:00 EDT the clocks go
 * back to 01:00 EST, so 01:30 in New York happens at 05:30Z and again at 06:30Z), at least two days ahead.
 */
function nextFallBack(now: Date): { day: number; first: Date; repeated: Date } {
  for (let year = now.getUTCFullYear(); ; year++) {
    const november = new Date(Date.UTC(year, 10, 1));
    const day = 1 + ((7 - november.getUTCDay()) % 7);
    const first = new Date(Date.UTC(year, 10, day, 5, 30));
    if (first.getTime() - now.getTime() > 2 * 24 * 60 * MINUTE) {
      return { day, first, repeated: new Date(first.getTime() + 60 * MINUTE) };
    }
  }
}

async function tickAt(time: Date): Promise<TickResult> {
  const run = await temp.uwf(["tick", "--at", time.toISOString(), "--queue", "--json"]);
  if (run.exitCode !== 0) throw new Error(`uwf tick --at ${time.toISOString()} exited ${run.exitCode}: ${run.stderr}`);
  return tickResultSchema.parse(run.json());
}

describe("uwf tick --at across a daylight-saving change", () => {
  it("fires a schedule of 01:30 New York time once on the night 01:30 happens twice", async () => {
    const { day, first, repeated } = nextFallBack(new Date());
    const added = await temp.uwf([
      "schedule",
      "add",
      "fall-back",
      LINEAR,
      "--cron",
      `30 1 ${day} 11 *`,
      "--tz",
      "America/New_York",
      "-p",
      "Once a year",
    ]);
    expect(added.stderr).toBe("");
    expect(added.exitCode).toBe(0);
    const shown = scheduleShowResultSchema.parse((await temp.uwf(["schedule", "show", "fall-back", "--json"])).json());
    expect(shown.nextFireAt).toBe(first.toISOString());

    // Ticks every twenty minutes from before the first 01:30 (EDT) to past the second (EST), as a cron would.
    const fires: string[] = [];
    for (let at = first.getTime() - 40 * MINUTE; at <= repeated.getTime() + 40 * MINUTE; at += 20 * MINUTE) {
      const tick = await tickAt(new Date(at));
      expect(tick.at).toBe(new Date(at).toISOString());
      fires.push(...tick.fired.filter((fire) => fire.thread !== null).map((fire) => fire.fireTime));
    }
    expect(fires).toEqual([first.toISOString()]);

    const threads = listResultSchema.parse((await temp.uwf(["list", "--json"])).json()).threads;
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ status: "active", queued: true, scheduledBy: { schedule: "fall-back" } });
    // The next fire is a year on, in its own zone's time.
    const after = scheduleShowResultSchema.parse((await temp.uwf(["schedule", "show", "fall-back", "--json"])).json());
    expect(Date.parse(after.nextFireAt ?? "")).toBeGreaterThan(repeated.getTime() + 300 * 24 * 60 * MINUTE);
    expect(after.threads.map((thread) => thread.fireTime)).toEqual([first.toISOString()]);
  }, 120_000);

  it("refuses an --at that is no ISO 8601 time with its zone (exit 2), firing nothing", async () => {
    for (const value of ["tomorrow", "2027-11-07T05:30:00", "2027-13-40T05:30:00Z"]) {
      const run = await temp.uwf(["tick", "--at", value, "--json"]);
      expect(run.exitCode).toBe(2);
      expect(errorResultSchema.parse(JSON.parse(run.stderr)).error.message).toContain("--at");
      expect(run.stdout).toBe("");
    }
  });
});
