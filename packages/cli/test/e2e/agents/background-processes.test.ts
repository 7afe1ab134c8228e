import { afterAll, afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "@uwf/cas";
import { waitFor } from "@uwf/cas/test";
import { agentRunNodeSchema, startResultSchema, stepResultSchema } from "@uwf/protocol";
import { errorOf } from "../../helpers/error-of.ts";
import { waitForSignalTaken } from "../../helpers/process-state.ts";
import { BACKENDS, type Backend, useBackendEnv } from "../../helpers/store-backends.ts";
import { createTempHome, FIXTURES, LINEAR, type TempHome } from "../../helpers/temp-home.ts";

/**
 * Agents that leave processes running which hold their stdout: uwf ends the step when the agent ends
 * (its exit, its deadline, a signal), stops what it left, and never waits on them. Every test runs on
 * both backends, as the worker tests do.
 */

const HOLDER_AGENT = join(FIXTURES, "agents/background-holder.sh");
const SERVE_AND_CHECK = join(FIXTURES, "workflows/serve-and-check.yaml");

const backendEnv = useBackendEnv();

let temp: TempHome;
let pidFile: string;
/** Processes the tests' agents started, stopped by their own pids should a test fail before uwf stops them. */
const started = new Set<string>();
function setUp(backend: Backend) {
  temp = createTempHome({ env: backendEnv(backend) });
  pidFile = join(temp.work, "agent.pid");
  for (const file of [pidFile, `${pidFile}.holder`, join(temp.work, "server.pid")]) started.add(file);
  temp.writeConfig(
    ["agents:", "  holder:", "    command: sh", `    args: ["${HOLDER_AGENT}"]`, "worker: { pollMs: 50 }"].join("\n"),
  );
}
/** The pid a fixture wrote to `file`, or null: never 0 or less, which `kill` reads as "my own group". */
function readPid(file: string): number | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, "utf8").trim();
  return /^[1-9][0-9]*$/.test(text) ? Number(text) : null;
}
function stopLeftovers() {
  for (const file of started) {
    const pid = readPid(file);
    if (pid === null) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  started.clear();
}
afterAll(stopLeftovers);

/** The pid background-holder.sh left holding its output (`setsid sleep 3000 &`), once it is on record. */
async function holder(): Promise<number> {
  await waitFor(() => existsSync(`${pidFile}.holder`), { what: "the agent leaving its holder" });
  return Number(readFileSync(`${pidFile}.holder`, "utf8"));
}

function waitUntilStopped(pid: number, what: string): Promise<void> {
  return waitFor(() => !isProcessAlive(pid), { what: `${what} (pid ${pid}) stopping`, timeoutMs: 30_000 });
}

for (const backend of BACKENDS) {
  describe(`on ${backend}`, () => {
    beforeEach(() => setUp(backend));
    afterEach(() => {
      stopLeftovers();
      temp.cleanup();
    });

    it("records the reply of an agent that exits leaving a process of another session holding its output", async () => {
      const thread = await temp.startThread(LINEAR);
      const stepped = await temp.uwf(["step", thread, "--agent", "holder", "--timeout", "60", "--json"], {
        env: { PID_FILE: pidFile },
      });
      expect(stepped.exitCode).toBe(0);
      const step = stepResultSchema.parse(stepped.json()).steps[0];
      expect(step?.output).toEqual({ plan: "step 1 plan" });
      const held = await holder();
      expect(stepped.stderr).toContain(`warning: the agent exited, but a process it started (pid ${held})`);
      await waitUntilStopped(held, "the holder");
      expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 1 });
      expect(await temp.listThreads("--running")).toEqual([]);
    });

    it("ends a step at its --timeout when the agent runs on and a process of another session holds its output", async () => {
      const thread = await temp.startThread(LINEAR);
      // Long enough for the agent to leave its holder and reach its `sleep` on a loaded machine first.
      const stepped = await temp.uwf(["step", thread, "--agent", "holder", "--timeout", "5", "--json"], {
        env: { PID_FILE: pidFile, KEEP_RUNNING: "1" },
      });
      expect(stepped.exitCode).toBe(1);
      const error = errorOf(stepped.stderr);
      expect(error).toMatchObject({ code: "agent-failed" });
      expect(error.message).toContain("timed out after 5 s");
      const run = agentRunNodeSchema.parse((await temp.uwf(["cas", "get", String(error.data.run)])).json());
      expect(run.outcome).toBe("timeout");
      await waitUntilStopped(await holder(), "the holder");
      await waitUntilStopped(Number(readFileSync(pidFile, "utf8")), "the agent");
      expect(await temp.showThread(thread)).toMatchObject({ stepCount: 0 });
      expect(await temp.listThreads("--running")).toEqual([]);
    });

    it("obeys SIGTERM while such an agent runs: exit 130, the thread unchanged and free", async () => {
      const thread = await temp.startThread(LINEAR);
      const stepper = temp.spawn(["step", thread, "--agent", "holder", "--json"], {
        env: { PID_FILE: pidFile, KEEP_RUNNING: "1" },
      });
      await waitFor(() => existsSync(pidFile), { what: "the agent starting" });
      stepper.kill("SIGTERM");
      expect(await stepper.exited).toBe(130);
      const error = errorOf(await new Response(stepper.stderr as ReadableStream).text());
      expect(error.code).toBe("interrupted");
      const reply = await temp.uwf(["show", String(error.data.run), "--reply"]);
      expect(reply.stdout).toContain("plan: step 1 plan");
      await waitUntilStopped(await holder(), "the holder");
      expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 0 });
      expect(await temp.listThreads("--running")).toEqual([]);
    });

    it("lets a worker holding such a thread stop on a second SIGTERM, releasing it", async () => {
      const queued = await temp.uwf(["start", LINEAR, "-p", "held", "--queue", "--json"]);
      const thread = startResultSchema.parse(queued.json()).thread;
      const worker = temp.spawn(["worker", "--agent", "holder", "--grace", "600"], {
        env: { PID_FILE: pidFile, KEEP_RUNNING: "1" },
      });
      await waitFor(() => existsSync(pidFile), { what: "the agent starting" });
      // The first drains: the step may finish within the grace; the second stops it. Signals of one kind
      // still pending merge into one, so the second waits until the worker has taken the first.
      worker.kill("SIGTERM");
      await waitForSignalTaken(worker.pid);
      worker.kill("SIGTERM");
      expect(await worker.exited).toBe(0);
      await waitUntilStopped(await holder(), "the holder");
      expect(await temp.showThread(thread)).toMatchObject({ status: "active", stepCount: 0 });
      expect(await temp.listThreads("--running")).toEqual([]);
    });

    it("keeps a shell stage's result when it leaves a server running in the background, stopping the server", async () => {
      const thread = await temp.startThread(SERVE_AND_CHECK);
      const stepped = await temp.uwf(["step", thread, "--timeout", "30", "--json"]);
      expect(stepped.exitCode).toBe(0);
      const result = stepResultSchema.parse(stepped.json());
      expect(result.status).toBe("ended");
      expect(result.steps[0]?.output).toEqual({ $status: "pass", exitCode: 0 });
      await waitUntilStopped(Number(readFileSync(join(temp.work, "server.pid"), "utf8")), "the server");
    });
  });
}
