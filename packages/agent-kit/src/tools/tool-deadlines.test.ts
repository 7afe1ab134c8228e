import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "@uwf/cas/test";
import { liveProcessesInGroup, makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import type { AgentTool, ToolContext } from "./agent-tool.ts";
import { runAgentTool, runToolWithDeadline } from "./agent-tools.ts";

/**
 * The pattern of the issue: each line takes JavaScript's backtracking engine up to half a second, less
 * once the JIT warms up, so 2,000 lines keep a search busy well past any deadline the tests set.
 */
const CATASTROPHIC = "^(a+)+$";
const TRAPS = `${"a".repeat(30)}b\n`.repeat(2000);

let temp: { path: string; remove: () => void };
let workspace: string;
let context: ToolContext;

beforeEach(() => {
  temp = makeTempDirectory("uwf-deadline-test-");
  workspace = join(temp.path, "work");
  mkdirSync(workspace);
  mkdirSync(join(temp.path, "home"));
  workspace = realpathSync(workspace);
  context = {
    workspace,
    env: { thread: "T", role: "r", step: 1, home: join(temp.path, "home") },
    signal: new AbortController().signal,
    deadline: null,
    killGraceMs: 200,
  };
});
afterEach(() => temp.remove());

/**
 * A hang guard, not a measurement: every test here ends in well under a second when the deadline or
 * the stop works, and runs for 30 s or more (the sleeping command, the trap lines) when it does not.
 */
const HANG_GUARD_MS = 20_000;

/**
 * Runs `work` while a 50 ms timer ticks: `longestGapMs` is the longest the event loop went without a tick
 * (from the start, between ticks, to the end). A loop blocked by the work gets no tick until it is done.
 */
async function withTicks<Value>(
  work: () => Promise<Value>,
): Promise<{ value: Value; longestGapMs: number; ms: number }> {
  const started = performance.now();
  const ticks = [started];
  const interval = setInterval(() => ticks.push(performance.now()), 50);
  try {
    const value = await work();
    const ended = performance.now();
    ticks.push(ended);
    const gaps = ticks.slice(1).map((tick, index) => tick - (ticks[index] as number));
    return { value, longestGapMs: Math.max(...gaps), ms: ended - started };
  } finally {
    clearInterval(interval);
  }
}

describe("search_files and pathological patterns", () => {
  it(
    "stops at the step's deadline without blocking the event loop",
    async () => {
      writeFileSync(join(workspace, "trap.txt"), TRAPS);
      context = { ...context, deadline: Date.now() + 1_000 };
      const { value, longestGapMs, ms } = await withTicks(() =>
        runAgentTool("search_files", { pattern: CATASTROPHIC }, context),
      );
      expect(value).toEqual({ content: "search_files stopped: the step was stopped", isError: true });
      // The search ran in a worker: the loop kept ticking throughout. A search on the loop would leave it
      // without a tick for the whole second up to the deadline; a loaded machine only delays some ticks.
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(longestGapMs).toBeLessThan(ms / 2);
    },
    HANG_GUARD_MS,
  );

  it(
    "stops at once when the step is stopped, keeping the matches found before",
    async () => {
      writeFileSync(join(workspace, "a-first.txt"), "aaa\n");
      writeFileSync(join(workspace, "trap.txt"), TRAPS);
      const stop = new AbortController();
      context = { ...context, signal: stop.signal };
      setTimeout(() => stop.abort("SIGTERM"), 500);
      const value = await runAgentTool("search_files", { pattern: CATASTROPHIC }, context);
      expect(value).toEqual({
        content: "search_files stopped: the step was stopped\nmatches before it stopped:\na-first.txt:1: aaa",
        isError: true,
      });
    },
    HANG_GUARD_MS,
  );

  it("still finds what ordinary patterns match, line by line", async () => {
    writeFileSync(join(workspace, "code.ts"), "let a = 1;\nconst b = 2;\nconst c = 3;\n");
    const result = await runAgentTool("search_files", { pattern: "^const (\\w)" }, context);
    expect(result.content).toBe("code.ts:2: const b = 2;\ncode.ts:3: const c = 3;");
  });
});

describe("runToolWithDeadline", () => {
  const hanging: AgentTool = {
    name: "hang",
    description: "never returns",
    inputSchema: { type: "object", properties: {} },
    timeLimitMs: () => 300,
    run: () => new Promise(() => {}),
  };

  it(
    "gives up on a tool that ignores its time limit, after the kill grace",
    async () => {
      const result = await runToolWithDeadline(hanging, {}, context);
      expect(result).toEqual({ content: "hang was stopped: it did not finish within 0.3 s", isError: true });
    },
    HANG_GUARD_MS,
  );

  it("gives up on it when the step is stopped", async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort("SIGTERM"), 100);
    const result = await runToolWithDeadline(
      { ...hanging, timeLimitMs: () => 60_000 },
      {},
      {
        ...context,
        signal: stop.signal,
      },
    );
    expect(result).toEqual({ content: "hang was stopped: the step was stopped", isError: true });
  });

  it("returns a thrown error as an is_error result", async () => {
    const throwing: AgentTool = { ...hanging, run: () => Promise.reject(new Error("boom")) };
    expect(await runToolWithDeadline(throwing, {}, context)).toEqual({ content: "boom", isError: true });
  });
});

describe("run_command and the step's end", () => {
  it(
    "ends the command's whole process group within the kill grace when the step is stopped",
    async () => {
      const stop = new AbortController();
      context = { ...context, signal: stop.signal };
      setTimeout(() => stop.abort("SIGTERM"), 300);
      const result = await runAgentTool(
        "run_command",
        { command: "echo $$ > group.txt; trap '' TERM; sleep 30 & wait" },
        context,
      );
      expect(result.isError).toBe(true);
      const group = Number(await Bun.file(join(workspace, "group.txt")).text());
      // The group was sent SIGKILL at the end of the grace; on a loaded machine it may take a moment to die.
      await waitFor(() => liveProcessesInGroup(group).length === 0, { what: "the command's group to die" });
    },
    HANG_GUARD_MS,
  );

  it(
    "keeps a command inside the step's deadline",
    async () => {
      context = { ...context, deadline: Date.now() + 400 };
      const result = await runAgentTool("run_command", { command: "sleep 30", timeout_seconds: 600 }, context);
      // Left alone, `sleep 30` would end with status 0: an error result means the deadline stopped it.
      expect(result.isError).toBe(true);
    },
    HANG_GUARD_MS,
  );
});
