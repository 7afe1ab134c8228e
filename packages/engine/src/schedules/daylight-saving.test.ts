import { describe, expect, it } from "bun:test";
import { createMemoryStore } from "@uwf/cas";
import { sampleWorkflow } from "@uwf/cas/test";
import { defaultConfig } from "@uwf/protocol";
import { ulid } from "ulid";
import { fireDueSchedules } from "./fire-due-schedules.ts";
import { addSchedule } from "./manage-schedules.ts";

const MINUTE = 60_000;

/**
 * A daily 01:30 schedule in America/New_York, ticked every 10 minutes (as `uwf tick` from cron would be)
 * on a fake store clock from `from` to `to`: the fire times it started threads for.
 */
async function firesBetween(from: string, to: string, overlap: "allow" | "skip"): Promise<string[]> {
  const store = createMemoryStore();
  let clock = new Date(from);
  store.refs.clock = async () => clock;
  const workflow = sampleWorkflow();
  const address = await store.objects.put(workflow);
  await store.refs.setWorkflow({ name: workflow.name, address, updatedAt: clock.toISOString() });
  const options = { store, config: defaultConfig(), cwd: "/work", home: "/work/.uwf", now: () => clock };
  await addSchedule({
    ...options,
    schedule: { name: "nightly", workflow: workflow.name, cron: "30 1 * * *", tz: "America/New_York", overlap },
  });
  const fired: string[] = [];
  for (; clock.getTime() <= Date.parse(to); clock = new Date(clock.getTime() + 10 * MINUTE)) {
    const fires = await fireDueSchedules({ ...options, newId: ulid, queued: true });
    fired.push(...fires.filter((fire) => fire.thread !== null).map((fire) => fire.fireTime));
  }
  const threads = (await store.refs.listThreads({ scheduledBy: "nightly" })).threads;
  expect(threads).toHaveLength(fired.length);
  return fired;
}

describe("a daily schedule across a daylight-saving change (America/New_York)", () => {
  it("fires once in the repeated hour of the November fall-back (01:30 EDT, not again at 01:30 EST)", async () => {
    // 2026-11-01: at 02:00 EDT (06:00Z) the clocks go back to 01:00 EST, so 01:30 happens at 05:30Z and at 06:30Z.
    const fired = await firesBetween("2026-10-31T12:00:00Z", "2026-11-02T12:00:00Z", "allow");
    expect(fired).toEqual(["2026-11-01T05:30:00.000Z", "2026-11-02T06:30:00.000Z"]);
  });

  it("fires once on the day of the March spring-forward, whose 01:30 exists (the 02:00–03:00 hour is skipped)", async () => {
    const fired = await firesBetween("2026-03-07T12:00:00Z", "2026-03-09T12:00:00Z", "allow");
    expect(fired).toEqual(["2026-03-08T06:30:00.000Z", "2026-03-09T05:30:00.000Z"]);
  });
});
