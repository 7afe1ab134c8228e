import { describe, expect, it } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import { startResultSchema } from "@uwf/protocol";
import { errorOf } from "../../helpers/error-of.ts";
import { FIXTURES, fixtureAgentsConfig, LINEAR, useTempHome } from "../../helpers/temp-home.ts";

const FAN_OUT = join(FIXTURES, "workflows/fan-out-review.yaml");

const temp = useTempHome({
  setUp: (home) => home.writeConfig(fixtureAgentsConfig(["plan-then-sleep", "sleepy"]).join("\n")),
});

describe("cancelling a fan-out parent that `uwf run` is stepping", () => {
  it("stops the run with exit 1 and thread-cancelled, as a plain thread cancelled mid-step does", async () => {
    const pidFile = join(temp.work, "agent.pid");
    const run = temp.spawn(["run", FAN_OUT, "-p", "Ship it", "--agent", "plan-then-sleep", "--json"], {
      env: { PID_FILE: pidFile },
    });
    // The three reviewers (the branches' agents) are running.
    await waitFor(() => readdirSync(temp.work).filter((name) => name.startsWith("agent.pid.reviewer-")).length === 3, {
      what: "the three branches' agents running",
      timeoutMs: 30_000,
      intervalMs: 25,
    });
    const parent = (await temp.uwf(["list", "--json"]))
      .json<{ threads: { id: string; branchOf?: unknown }[] }>()
      .threads.find((thread) => thread.branchOf === undefined)?.id;
    expect(parent).toBeDefined();

    const cancelled = await temp.uwf(["cancel", String(parent)]);
    expect(cancelled.exitCode).toBe(0);

    expect(await run.exited).toBe(1);
    const stderr = await new Response(run.stderr as ReadableStream).text();
    const error = errorOf(stderr);
    expect(error).toMatchObject({ code: "thread-cancelled", data: { thread: parent } });
    expect(await temp.showThread(String(parent))).toMatchObject({ status: "cancelled", stepCount: 1 });
  }, 60_000);
});

describe("cancelling a queued thread", () => {
  it("takes it off the queue while a worker holds it: show no longer says queued", async () => {
    const pidFile = join(temp.work, "agent.pid");
    const thread = startResultSchema.parse(
      (await temp.uwf(["start", LINEAR, "-p", "endless", "--queue", "--json"])).json(),
    ).thread;
    expect((await temp.showThread(thread)).queued).toBe(true);
    const worker = temp.spawn(["worker", "--once", "--agent", "sleepy"], { env: { PID_FILE: pidFile } });
    await waitFor(() => existsSync(pidFile), { what: "the worker's agent running", timeoutMs: 30_000, intervalMs: 25 });

    expect((await temp.uwf(["cancel", thread])).exitCode).toBe(0);
    expect(await worker.exited).toBe(0);
    const shown = await temp.showThread(thread);
    expect(shown.status).toBe("cancelled");
    expect(shown.queued).not.toBe(true);
    expect((await temp.uwf(["show", thread])).stdout).not.toContain("queued");
  }, 60_000);

  it("takes it off the queue when no worker holds it", async () => {
    const thread = startResultSchema.parse(
      (await temp.uwf(["start", LINEAR, "-p", "later", "--queue", "--json"])).json(),
    ).thread;
    expect((await temp.uwf(["cancel", thread])).exitCode).toBe(0);
    expect((await temp.showThread(thread)).queued).not.toBe(true);
  }, 60_000);
});
