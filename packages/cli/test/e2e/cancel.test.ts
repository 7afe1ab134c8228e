import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { shownThreadSchema } from "@uwf/protocol";
import { createTempHome, FIXTURES, type TempHome } from "../helpers/temp-home.ts";

const workflow = (name: string) => join(FIXTURES, "workflows", `${name}.yaml`);
const scripted = (name: string) => `scripted:${join(FIXTURES, "workflows", `${name}.scenario.yaml`)}`;

let temp: TempHome;
beforeEach(() => {
  temp = createTempHome();
});
afterEach(() => temp.cleanup());

const start = (name: string) => temp.startThread(workflow(name), "The task");

const record = (thread: string) => temp.showThread(thread);

describe("uwf cancel", () => {
  it("cancels an active thread, which then refuses steps", async () => {
    const thread = await start("linear");
    const cancelled = await temp.uwf(["cancel", thread, "--json"]);
    expect(cancelled.exitCode).toBe(0);
    expect(shownThreadSchema.parse(cancelled.json()).status).toBe("cancelled");
    expect((await record(thread)).status).toBe("cancelled");
    expect((await temp.uwf(["step", thread, "--agent", scripted("linear")])).exitCode).toBe(1);
  });

  it("cancels a suspended thread", async () => {
    const thread = await start("ask");
    expect((await temp.uwf(["step", thread, "--agent", scripted("ask")])).exitCode).toBe(20);
    const cancelled = await temp.uwf(["cancel", thread]);
    expect(cancelled.exitCode).toBe(0);
    expect(cancelled.stdout).toBe(`thread ${thread} cancelled\n`);
    expect((await record(thread)).status).toBe("cancelled");
  });

  it("refuses an ended thread with exit 1 and a clear message, and leaves its record as it was", async () => {
    const thread = await start("linear");
    expect((await temp.uwf(["step", thread, "--all", "--agent", scripted("linear")])).exitCode).toBe(0);
    const before = await record(thread);
    expect(before.status).toBe("ended");

    const refused = await temp.uwf(["cancel", thread]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(
      `thread ${thread} has already ended; cancel stops only an active or suspended thread, so nothing was changed`,
    );
    expect(await record(thread)).toEqual(before);

    const asJson = await temp.uwf(["cancel", thread, "--json"]);
    expect(asJson.exitCode).toBe(1);
    const { error } = JSON.parse(asJson.stderr) as { error: { code: string; data: { thread: string } } };
    expect(error.code).toBe("thread-already-ended");
    expect(error.data.thread).toBe(thread);
    expect(await record(thread)).toEqual(before);
  });

  it("changes nothing and succeeds on a thread already cancelled", async () => {
    const thread = await start("linear");
    expect((await temp.uwf(["cancel", thread])).exitCode).toBe(0);
    const before = await record(thread);

    const again = await temp.uwf(["cancel", thread]);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe(`thread ${thread} was already cancelled; nothing changed\n`);
    const asJson = await temp.uwf(["cancel", thread, "--json"]);
    expect(asJson.exitCode).toBe(0);
    expect(shownThreadSchema.parse(asJson.json())).toEqual(before);
    expect(await record(thread)).toEqual(before);
  });
});
