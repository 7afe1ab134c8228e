import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import { runProcessGroup } from "./run-process-group.ts";

let temp: { path: string; remove: () => void };
beforeEach(() => {
  temp = makeTempDirectory();
});
afterEach(() => temp.remove());

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
});
