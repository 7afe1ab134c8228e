import { describe, expect, it } from "bun:test";
import { spawn } from "node:child_process";
import { deadPid } from "../testing/dead-pid.ts";
import { isProcessAlive, isProcessGroupAlive, readProcessStart } from "./is-process-alive.ts";

const onLinux = process.platform === "linux";

describe("isProcessAlive", () => {
  it("knows this process, with or without its start", () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(process.pid, readProcessStart(process.pid))).toBe(true);
  });

  it("knows a process that has exited and been reaped is gone", () => {
    expect(isProcessAlive(deadPid())).toBe(false);
  });

  it("never takes pid 0 or a negative number (process groups) for a process", () => {
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-process.pid)).toBe(false);
    expect(isProcessAlive(1.5)).toBe(false);
  });

  it.if(onLinux)("takes a pid that names a process started at another time for a gone process", () => {
    const start = readProcessStart(process.pid);
    expect(start).toMatch(/^\d+$/);
    expect(isProcessAlive(process.pid, `${start}0`)).toBe(false);
  });

  it.if(onLinux)("takes a zombie, killed but not yet reaped, for a gone process", async () => {
    // The background sleep's parent becomes the long sleep, which never reaps it. It outlives the shell's
    // exec by a moment: one that ended first could be reaped by the shell itself (seen in CI).
    const parent = Bun.spawn(["sh", "-c", "sleep 0.3 & echo $!; exec sleep 5"], { stdout: "pipe" });
    const reader = (parent.stdout as ReadableStream<Uint8Array>).getReader();
    const zombie = Number(new TextDecoder().decode((await reader.read()).value).trim());
    try {
      let state = "";
      for (let tries = 0; tries < 100 && state !== "Z"; tries++) {
        await Bun.sleep(20);
        const stat = await Bun.file(`/proc/${zombie}/stat`).text();
        state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] ?? "";
      }
      expect(state).toBe("Z");
      expect(isProcessAlive(zombie)).toBe(false);
    } finally {
      parent.kill("SIGKILL");
      await parent.exited;
    }
  });
});

describe("readProcessStart", () => {
  it("is null for a process that is gone", () => {
    expect(readProcessStart(deadPid())).toBeNull();
  });
});

describe("isProcessGroupAlive", () => {
  it("sees a running group, and none for a gone process or pid 0", async () => {
    const leader = spawn("sleep", ["5"], { detached: true, stdio: "ignore" });
    const group = spawnedPid(leader);
    try {
      expect(isProcessGroupAlive(group)).toBe(true);
    } finally {
      process.kill(-group, "SIGKILL");
    }
    expect(isProcessGroupAlive(Bun.spawnSync(["true"]).pid)).toBe(false);
    expect(isProcessGroupAlive(0)).toBe(false);
  });

  it.if(onLinux)("takes a group whose members are all zombies for a gone group", async () => {
    // The group's leader exits at once; its background child becomes a zombie nobody reaps yet.
    const leader = spawn("sh", ["-c", "sleep 0 & exec sleep 5"], { detached: true, stdio: "ignore" });
    const group = spawnedPid(leader);
    await Bun.sleep(100);
    expect(isProcessGroupAlive(group)).toBe(true);
    process.kill(-group, "SIGKILL");
    await new Promise((resolve) => leader.once("exit", resolve));
    expect(isProcessGroupAlive(group)).toBe(false);
  });
});

/** A spawned child's pid; a failed spawn throws rather than give 0, which `kill(-0)` reads as this test's own group. */
function spawnedPid(child: { pid?: number }): number {
  if (child.pid === undefined || child.pid <= 1) throw new Error("the test process did not start");
  return child.pid;
}
