import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "@uwf/cas";
import { waitFor } from "@uwf/cas/test";
import { fixturePath, liveProcessesInGroup, makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import { type RunProcessGroupOptions, runProcessGroup } from "./run-process-group.ts";

let temp: { path: string; remove: () => void };
let holderFile: string;
beforeEach(() => {
  temp = makeTempDirectory();
  holderFile = join(temp.path, "holder.pid");
});
afterEach(() => {
  // A holder left by a failing test: stopped by its own pid.
  // A pid of 0 would name this test's own process group, so only a whole positive number is signalled.
  const pid = existsSync(holderFile) ? Number(readFileSync(holderFile, "utf8")) : 0;
  if (Number.isInteger(pid) && pid > 1) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  temp.remove();
});

/** leave-holder.sh: a reply, then `setsid sleep 300 &` holding its stdout and stderr (and with "stay", `sleep 60`). */
function runLeavingHolder(extra: Partial<RunProcessGroupOptions> = {}, stay = false) {
  return runProcessGroup({
    command: fixturePath("leave-holder.sh"),
    args: stay ? [holderFile, "stay"] : [holderFile],
    cwd: temp.path,
    env: {},
    timeoutMs: 30_000,
    captureStdout: true,
    label: "the agent",
    outputGraceMs: 200,
    ...extra,
  });
}

function holder(): number {
  return Number(readFileSync(holderFile, "utf8"));
}

describe("runProcessGroup", () => {
  it("starts the program as the leader of a new session and process group", async () => {
    const spawned: number[] = [];
    const result = await runProcessGroup({
      command: "sh",
      args: ["-c", "ps -o pid=,pgid=,sid= -p $$"],
      cwd: temp.path,
      env: {},
      timeoutMs: 10_000,
      captureStdout: true,
      onSpawn: (pid) => spawned.push(pid),
    });
    expect(result.error).toBeNull();
    const [pid, group, session] = result.reply.trim().split(/\s+/).map(Number);
    expect(spawned).toEqual([pid as number]);
    expect(group).toBe(pid as number);
    expect(session).toBe(pid as number);
  });

  it("ends when the program exits, though a process it started in another session still holds its output", async () => {
    const warnings: string[] = [];
    const result = await runLeavingHolder({ onWarning: (message) => warnings.push(message) });
    expect(result).toMatchObject({ exitCode: 0, error: null, timedOut: false, interrupted: false });
    expect(result.reply).toBe("---\nsummary: done\n---\n");
    // The holder escaped the process group, but held the output: it was found and stopped.
    await waitFor(() => !isProcessAlive(holder()), { what: "the holder stopping" });
    expect(warnings).toEqual([
      `the agent exited, but a process it started (pid ${holder()}) still held its output 200 ms later: stopped, and the reply is what it printed until then`,
    ]);
  });

  it("stops a process of its group left holding its output, keeping the program's exit code", async () => {
    const pidFile = join(temp.path, "server.pid");
    const result = await runProcessGroup({
      command: "sh",
      args: ["-c", `echo started; sleep 300 & echo $! > ${pidFile}; exit 3`],
      cwd: temp.path,
      env: {},
      timeoutMs: 30_000,
      captureStdout: true,
      outputGraceMs: 200,
    });
    expect(result).toMatchObject({ exitCode: 3, error: null, reply: "started\n" });
    await waitFor(() => !isProcessAlive(Number(readFileSync(pidFile, "utf8"))), { what: "the server stopping" });
  });

  it("waits for output the program's children close within the grace, and stops nothing", async () => {
    const warnings: string[] = [];
    const result = await runProcessGroup({
      command: "sh",
      args: ["-c", "(sleep 0.1; echo late) & echo early"],
      cwd: temp.path,
      env: {},
      timeoutMs: 30_000,
      captureStdout: true,
      outputGraceMs: 5_000,
      onWarning: (message) => warnings.push(message),
    });
    expect(result).toMatchObject({ exitCode: 0, error: null, reply: "early\nlate\n" });
    expect(warnings).toEqual([]);
  });

  it("ends at its deadline, stopping the group and a holder of its output outside it", async () => {
    const spawned: number[] = [];
    const result = await runLeavingHolder(
      { timeoutMs: 300, killGraceMs: 300, onSpawn: (pid) => spawned.push(pid) },
      true,
    );
    expect(result).toMatchObject({ timedOut: true, error: "the agent timed out after 300 ms" });
    expect(result.reply).toBe("---\nsummary: done\n---\n");
    await waitFor(() => !isProcessAlive(holder()), { what: "the holder stopping" });
    expect(liveProcessesInGroup(spawned[0] ?? 0)).toEqual([]);
  });

  it("ends when aborted, stopping the group and a holder of its output outside it", async () => {
    const controller = new AbortController();
    const running = runLeavingHolder({ signal: controller.signal, killGraceMs: 300 }, true);
    await waitFor(() => existsSync(holderFile), { what: "the holder starting" });
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ interrupted: true, error: "the agent was interrupted" });
    expect(result.reply).toBe("---\nsummary: done\n---\n");
    await waitFor(() => !isProcessAlive(holder()), { what: "the holder stopping" });
  });
});
