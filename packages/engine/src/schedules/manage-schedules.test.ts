import { describe, expect, it } from "bun:test";
import { createMemoryStore } from "@uwf/cas";
import { sampleSchedule, sampleWorkflow } from "@uwf/cas/test";
import type { WorkflowNode } from "@uwf/protocol";
import { registerWorkflowSchedule, setSchedulePaused } from "./manage-schedules.ts";

const now = () => new Date();

function withSchedule(schedule: WorkflowNode["schedule"]): WorkflowNode {
  const workflow = sampleWorkflow();
  if (schedule !== undefined) workflow.schedule = schedule;
  return workflow;
}

describe("registerWorkflowSchedule", () => {
  it("registers, keeps, updates and removes the schedule named after the workflow", async () => {
    const store = createMemoryStore();
    const daily = withSchedule({ cron: "0 9 * * *", tz: "Europe/Berlin", prompt: "Go", overlap: "allow" });
    expect(await registerWorkflowSchedule({ store, workflow: daily, now })).toEqual({
      kind: "registered",
      schedule: "review-loop",
    });
    expect(await store.refs.getSchedule("review-loop")).toMatchObject({
      workflow: "review-loop",
      source: "workflow",
      tz: "Europe/Berlin",
      overlap: "allow",
      prompt: "Go",
      paused: false,
    });
    expect((await registerWorkflowSchedule({ store, workflow: daily, now })).kind).toBe("unchanged");
    // Paused by hand, then the workflow changes its prompt: still paused.
    await setSchedulePaused(store.refs, "review-loop", true);
    const changed = withSchedule({ cron: "0 9 * * *", tz: "Europe/Berlin", prompt: "Go on", overlap: "allow" });
    expect((await registerWorkflowSchedule({ store, workflow: changed, now })).kind).toBe("updated");
    expect(await store.refs.getSchedule("review-loop")).toMatchObject({
      prompt: "Go on",
      paused: true,
      nextFireAt: null,
    });
    expect((await registerWorkflowSchedule({ store, workflow: withSchedule(undefined), now })).kind).toBe("removed");
    expect(await store.refs.getSchedule("review-loop")).toBeNull();
    expect((await registerWorkflowSchedule({ store, workflow: withSchedule(undefined), now })).kind).toBe("none");
  });

  it("leaves alone a schedule of that name that uwf schedule add made", async () => {
    const store = createMemoryStore();
    const made = sampleSchedule({ name: "review-loop" });
    await store.refs.createSchedule(made);
    const workflow = withSchedule({ cron: "0 9 * * *" });
    expect(await registerWorkflowSchedule({ store, workflow, now })).toEqual({
      kind: "taken",
      schedule: "review-loop",
    });
    expect(await store.refs.getSchedule("review-loop")).toEqual(made);
  });
});

describe("setSchedulePaused", () => {
  it("pauses (no next fire time) and resumes from the cron's next time after now", async () => {
    const store = createMemoryStore();
    await store.refs.createSchedule(sampleSchedule({ cron: "* * * * * *", nextFireAt: "2026-01-01T00:00:00.000Z" }));
    const paused = await setSchedulePaused(store.refs, "nightly", true);
    expect(paused).toMatchObject({ paused: true, nextFireAt: null });
    expect(await store.refs.getSchedule("nightly")).toEqual(paused);
    const resumed = await setSchedulePaused(store.refs, "nightly", false);
    expect(resumed.paused).toBe(false);
    expect(Date.parse(resumed.nextFireAt ?? "")).toBeGreaterThan(Date.now() - 1000);
    await expect(setSchedulePaused(store.refs, "missing", true)).rejects.toMatchObject({ code: "schedule-not-found" });
  });
});
