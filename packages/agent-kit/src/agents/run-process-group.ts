import { statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { messageOf } from "@uwf/protocol";
import type { AgentLaunchResult } from "./agent-launch-result.ts";
import { buildLaunchResult } from "./build-launch-result.ts";
import { formatSeconds } from "./format-seconds.ts";
import { TailBuffer } from "./tail-buffer.ts";

export interface RunProcessGroupOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  /** Added to this process's environment, or the whole environment when `extendEnv` is false. */
  env: Readonly<Record<string, string>>;
  /** Start from this process's environment. Default true; false with `buildChildEnvironment` leaves keys out. */
  extendEnv?: boolean;
  /** Written to stdin, which then closes; without it stdin is empty. */
  input?: string;
  /** Milliseconds before the whole process group is stopped; 0 or less means no limit. */
  timeoutMs: number;
  /** Aborting it (Ctrl-C) stops the whole process group. */
  signal?: AbortSignal;
  /** Milliseconds between SIGTERM and SIGKILL. Default 2000. */
  killGraceMs?: number;
  /** Told the program's pid, which is also its process group's id, as soon as it has started. */
  onSpawn?: (pid: number) => void;
  /** Buffer all of stdout and return it as the reply (no size limit). Otherwise only `onStdout` sees it. */
  captureStdout: boolean;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /** Names the program in error messages: "the agent timed out after 30 s". Default "the program". */
  label?: string;
  /** Characters of stderr kept in `stderrTail`. Default 4096. */
  stderrTailLength?: number;
}

export const DEFAULT_KILL_GRACE_MS = 2_000;
const DEFAULT_STDERR_TAIL_LENGTH = 4_096;
const MAX_TIMER_MS = 2 ** 31 - 1;
const GROUP_POLL_MS = 20;

/**
 * Runs a program as the leader of a new session and process group, so that a timeout or an abort
 * stops everything it started: SIGTERM to the group, then SIGKILL to whatever is left after a grace
 * period. Never throws for the program's failure: the result says what happened, with the captured
 * stdout as `reply` and the program and its arguments as `command`; `error` is set when it could
 * not start, timed out, was interrupted or was killed by a signal, not for an exit code.
 *
 * Bun's own spawn (`detached` calls setsid): it starts a program in about 2 ms, where a process
 * library's first call in a process cost 17–20 ms, and every step is a new process.
 */
export async function runProcessGroup(options: RunProcessGroupOptions): Promise<AgentLaunchResult> {
  const startedAt = new Date();
  const label = options.label ?? "the program";
  const command = [options.command, ...options.args];
  const graceMs = Math.max(0, Math.round(options.killGraceMs ?? DEFAULT_KILL_GRACE_MS));
  const stderrTail = new TailBuffer(options.stderrTailLength ?? DEFAULT_STDERR_TAIL_LENGTH);
  const finish = (fields: Partial<AgentLaunchResult>) =>
    buildLaunchResult(startedAt, { command, stderrTail: stderrTail.toString(), ...fields });

  if (!isDirectory(options.cwd)) return finish({ error: `the working directory ${options.cwd} does not exist` });
  if (options.signal?.aborted)
    return finish({ interrupted: true, error: `${label} was interrupted before it started` });

  let subprocess: Bun.Subprocess<"ignore" | Uint8Array, "pipe", "pipe">;
  try {
    subprocess = Bun.spawn(command, {
      cwd: options.cwd,
      env: options.extendEnv === false ? { ...options.env } : { ...process.env, ...options.env },
      stdin: options.input === undefined ? "ignore" : new TextEncoder().encode(options.input),
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
  } catch (error) {
    return finish({ error: `${label} could not be started (${options.command}): ${messageOf(error)}` });
  }
  const groupId = subprocess.pid;
  options.onSpawn?.(groupId);

  const stop = { reason: null as "timeout" | "interrupt" | null, done: Promise.resolve() };
  const stopGroup = (reason: "timeout" | "interrupt") => {
    if (stop.reason !== null) return;
    stop.reason = reason;
    signalGroup(groupId, "SIGTERM");
    stop.done = stopProcessGroup(groupId, graceMs);
  };
  const delay = toTimerDelay(options.timeoutMs);
  const timer = delay === 0 ? null : setTimeout(() => stopGroup("timeout"), delay);
  const onAbort = () => stopGroup("interrupt");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let stdout = "";
  try {
    // Done when the leader has exited and every process holding its stdout or stderr has closed them.
    [stdout] = await Promise.all([
      options.captureStdout
        ? new Response(subprocess.stdout).text()
        : readText(subprocess.stdout, (chunk) => options.onStdout?.(chunk)).then(() => ""),
      readText(subprocess.stderr, (chunk) => {
        stderrTail.append(chunk);
        options.onStderr?.(chunk);
      }),
      subprocess.exited,
    ]);
  } finally {
    if (timer !== null) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  // The leader is gone; members of its group that ignored SIGTERM are not, until the grace period ends.
  await stop.done;

  const signal = subprocess.signalCode === null ? null : String(subprocess.signalCode);
  const exitCode = signal === null ? subprocess.exitCode : null;
  const interrupted = stop.reason === "interrupt";
  const timedOut = stop.reason === "timeout";
  let error: string | null = null;
  if (interrupted) error = `${label} was interrupted`;
  else if (timedOut) error = `${label} timed out after ${formatTimeLimit(options.timeoutMs)}`;
  else if (signal !== null) error = `${label} was killed by ${signal}`;
  return finish({ reply: stdout, exitCode, signal, timedOut, interrupted, error });
}

/** Waits up to `graceMs` for every process of the group to exit, then kills what is left. */
async function stopProcessGroup(groupId: number, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (isGroupAlive(groupId) && Date.now() < deadline) await sleep(GROUP_POLL_MS);
  signalGroup(groupId, "SIGKILL");
}

function signalGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch {
    // Already gone.
  }
}

function isGroupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

async function readText(stream: ReadableStream<Uint8Array>, onText: (chunk: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    const text = decoder.decode(chunk, { stream: true });
    if (text !== "") onText(text);
  }
  const rest = decoder.decode();
  if (rest !== "") onText(rest);
}

function toTimerDelay(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return 0;
  return Math.min(MAX_TIMER_MS, Math.max(1, Math.round(timeoutMs)));
}

/** A time limit under a second in milliseconds (`300 ms`), a longer one in seconds (`30 s`). */
function formatTimeLimit(milliseconds: number): string {
  return milliseconds < 1_000 ? `${Math.round(milliseconds)} ms` : formatSeconds(milliseconds);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
