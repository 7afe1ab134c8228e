import { statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { isProcessGroupAlive } from "@uwf/cas";
import { messageOf } from "@uwf/protocol";
import type { AgentLaunchResult } from "./agent-launch-result.ts";
import { buildLaunchResult } from "./build-launch-result.ts";
import { findOutputHolders, readOutputChannels } from "./find-output-holders.ts";
import { formatSeconds } from "./format-seconds.ts";
import { readStreamText } from "./read-stream-text.ts";
import {
  findTaggedProcesses,
  LAUNCH_TAG_VARIABLE,
  launchOriginOf,
  newLaunchTag,
  stopTaggedProcesses,
} from "./stop-tagged-processes.ts";
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
  /** Buffer all of stdout and return it as the reply (no size limit). `onStdout` sees it either way. */
  captureStdout: boolean;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /** Names the program in error messages: "the agent timed out after 30 s". Default "the program". */
  label?: string;
  /** Characters of stderr kept in `stderrTail`. Default 4096. */
  stderrTailLength?: number;
  /**
   * Milliseconds the processes the program leaves behind may keep its stdout or stderr open once it has
   * exited (or been stopped) before they are stopped too and reading ends. Default 1000.
   */
  outputGraceMs?: number;
  /** Told when processes the program left behind held its output past the grace and were stopped. */
  onWarning?: (message: string) => void;
  /**
   * Once the program has ended, stop every process it started that is still running wherever it went
   * (another session, a double fork, its output elsewhere), found by the launch tag in its environment
   * (stopTaggedProcesses; Linux). For an agent, whose end is its step's; not for a tool's command, whose
   * servers the agent may still use.
   */
  stopLeftovers?: boolean;
  /** The launch tag to give the program (default a new one): a caller's, which stops its tagged processes itself. */
  launchTag?: string;
}

export const DEFAULT_KILL_GRACE_MS = 2_000;
/** How long what a program left running may hold its output once it exited; see `outputGraceMs`. */
export const DEFAULT_OUTPUT_GRACE_MS = 1_000;
const DEFAULT_STDERR_TAIL_LENGTH = 4_096;
const MAX_TIMER_MS = 2 ** 31 - 1;
const GROUP_POLL_MS = 20;

/**
 * Runs a program as the leader of a new session and process group, so that a timeout or an abort
 * stops everything it started: SIGTERM to the group, then SIGKILL to whatever is left after a grace
 * period. The run ends when the program does, not when its output closes: processes it started
 * (`server &`) that still hold its stdout or stderr `outputGraceMs` after it exited are stopped the
 * same way, with those that left its group (`setsid`) but kept its output where `/proc` shows them
 * (Linux), and reading ends; the reply is what it printed, with its exit code. Never throws for the
 * program's failure: the result says what happened, with the captured stdout as `reply` and the
 * program and its arguments as `command`; `error` is set when it could not start, timed out, was
 * interrupted or was killed by a signal, not for an exit code.
 *
 * Bun's own spawn (`detached` calls setsid): it starts a program in about 2 ms, where a process
 * library's first call in a process cost 17–20 ms, and every step is a new process.
 */
export async function runProcessGroup(options: RunProcessGroupOptions): Promise<AgentLaunchResult> {
  const startedAt = new Date();
  const label = options.label ?? "the program";
  const command = [options.command, ...options.args];
  const graceMs = Math.max(0, Math.round(options.killGraceMs ?? DEFAULT_KILL_GRACE_MS));
  const outputGraceMs = Math.max(0, Math.round(options.outputGraceMs ?? DEFAULT_OUTPUT_GRACE_MS));
  const stderrTail = new TailBuffer(options.stderrTailLength ?? DEFAULT_STDERR_TAIL_LENGTH);
  const finish = (fields: Partial<AgentLaunchResult>) =>
    buildLaunchResult(startedAt, { command, stderrTail: stderrTail.toString(), ...fields });

  if (!isDirectory(options.cwd)) return finish({ error: `the working directory ${options.cwd} does not exist` });
  if (options.signal?.aborted)
    return finish({ interrupted: true, error: `${label} was interrupted before it started` });

  let subprocess: Bun.Subprocess<"ignore" | Uint8Array, "pipe", "pipe">;
  const tag = options.launchTag ?? newLaunchTag();
  const environment = options.extendEnv === false ? { ...options.env } : { ...process.env, ...options.env };
  try {
    subprocess = Bun.spawn(command, {
      cwd: options.cwd,
      env: { ...environment, [LAUNCH_TAG_VARIABLE]: tag },
      stdin: options.input === undefined ? "ignore" : new TextEncoder().encode(options.input),
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
  } catch (error) {
    return finish({ error: `${label} could not be started (${options.command}): ${messageOf(error)}` });
  }
  const groupId = subprocess.pid;
  // Whatever the program starts starts after it: older processes are not looked at for its tag.
  const programStart = launchOriginOf(groupId);
  const channels = readOutputChannels(groupId);
  options.onSpawn?.(groupId);

  const stdoutChunks: string[] = [];
  const stdout = readStreamText(subprocess.stdout, (chunk) => {
    if (options.captureStdout) stdoutChunks.push(chunk);
    options.onStdout?.(chunk);
  });
  const stderr = readStreamText(subprocess.stderr, (chunk) => {
    stderrTail.append(chunk);
    options.onStderr?.(chunk);
  });
  const outputs = { closed: Promise.all([stdout.closed, stderr.closed]).then(() => {}), done: false };
  outputs.closed.then(() => {
    outputs.done = true;
  });

  // Stopping is started once, by the deadline, an abort, or output left open after the exit.
  const stopping = Promise.withResolvers<void>();
  const stop = { reason: null as "timeout" | "interrupt" | null, started: false, done: Promise.resolve() };
  const stopAll = (reason: "timeout" | "interrupt" | null) => {
    if (stop.started) return;
    stop.started = true;
    stop.reason = reason;
    stop.done = stopProcesses(groupId, channels, graceMs, () => outputs.done);
    stopping.resolve();
  };
  const delay = toTimerDelay(options.timeoutMs);
  const timer = delay === 0 ? null : setTimeout(() => stopAll("timeout"), delay);
  const onAbort = () => {
    // Ctrl-C while the processes the program left are being stopped still interrupts the step.
    if (stop.started && stop.reason === null) stop.reason = "interrupt";
    stopAll("interrupt");
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const closedWithin = async (milliseconds: number, orUntil?: Promise<void>) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const over = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), milliseconds);
    });
    try {
      return await Promise.race([
        outputs.closed.then(() => true),
        over,
        ...(orUntil ? [orUntil.then(() => false)] : []),
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
  let leftOpen: number[] = [];
  try {
    await subprocess.exited;
    if (timer !== null) clearTimeout(timer);
    // Processes the program started may still hold its stdout or stderr: they get a short grace to
    // close them, then are stopped; reading ends either way.
    if (!(await closedWithin(outputGraceMs, stopping.promise)) || stop.started) {
      // A program gone before its output channels could be read (a fast exit on a busy machine) is
      // followed by its launch tag instead: what it started and left running holds the output.
      const followTag = channels.length === 0;
      if (!stop.started) leftOpen = followTag ? findTaggedProcesses(tag, programStart) : findOutputHolders(channels);
      stopAll(stop.reason);
      await stop.done;
      if (followTag) await stopTaggedProcesses(tag, graceMs, programStart);
      // What the stopped processes wrote is read while their ends close.
      await closedWithin(outputGraceMs);
    }
  } finally {
    if (timer !== null) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  // Reading ends here: a holder no signal reached (another user's program) is not waited on.
  stdout.stop();
  stderr.stop();
  await outputs.closed;
  if (options.stopLeftovers === true) await stopTaggedProcesses(tag, graceMs, programStart);
  if (leftOpen.length > 0) {
    const processes = leftOpen.length === 1 ? "a process" : `${leftOpen.length} processes`;
    options.onWarning?.(
      `${label} exited, but ${processes} it started (pid ${leftOpen.join(", ")}) still held its output ` +
        `${formatTimeLimit(outputGraceMs)} later: stopped, and the reply is what it printed until then`,
    );
  }

  const signal = subprocess.signalCode === null ? null : String(subprocess.signalCode);
  const exitCode = signal === null ? subprocess.exitCode : null;
  const interrupted = stop.reason === "interrupt";
  const timedOut = stop.reason === "timeout";
  let error: string | null = null;
  if (interrupted) error = `${label} was interrupted`;
  else if (timedOut) error = `${label} timed out after ${formatTimeLimit(options.timeoutMs)}`;
  else if (signal !== null) error = `${label} was killed by ${signal}`;
  return finish({ reply: stdoutChunks.join(""), exitCode, signal, timedOut, interrupted, error });
}

/**
 * Stops the program's process group and every process holding its stdout or stderr (those that left
 * the group with `setsid` included, see findOutputHolders): SIGTERM, then SIGKILL to what is left once
 * the group is gone and the output closed, or `graceMs` has passed.
 */
async function stopProcesses(
  groupId: number,
  channels: readonly string[],
  graceMs: number,
  outputClosed: () => boolean,
): Promise<void> {
  signalGroup(groupId, "SIGTERM");
  // Only while the output is open: once every holder closed it, its name may one day be another's.
  if (!outputClosed()) for (const pid of findOutputHolders(channels)) signalProcess(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while ((isProcessGroupAlive(groupId) || !outputClosed()) && Date.now() < deadline) await sleep(GROUP_POLL_MS);
  signalGroup(groupId, "SIGKILL");
  if (!outputClosed()) for (const pid of findOutputHolders(channels)) signalProcess(pid, "SIGKILL");
}

function signalGroup(groupId: number, signal: NodeJS.Signals): void {
  // kill(-0) and kill(-1) would reach uwf's own group or every process it may signal.
  if (groupId > 1) signalProcess(-groupId, signal);
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
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
