import { statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { execa } from "execa";
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
  /** Buffer all of stdout and return it (no size limit). Otherwise only `onStdout` sees it. */
  captureStdout: boolean;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /** Names the program in error messages: "the agent timed out after 30 s". Default "the program". */
  label?: string;
  /** Characters of stderr kept in `stderrTail`. Default 4096. */
  stderrTailLength?: number;
}

export interface ProcessGroupResult {
  stdout: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  interrupted: boolean;
  stderrTail: string;
  /** Could not start, timed out, interrupted or killed by a signal; null when the program exited by itself. */
  error: string | null;
  startedAt: string;
  completedAt: string;
}

export const DEFAULT_KILL_GRACE_MS = 2_000;
const DEFAULT_STDERR_TAIL_LENGTH = 4_096;
const MAX_TIMER_MS = 2 ** 31 - 1;
const GROUP_POLL_MS = 20;

/**
 * Runs a program as the leader of its own process group, so that a timeout or
 * an abort stops everything it started: SIGTERM to the group, then SIGKILL to
 * whatever is left after a grace period. Never throws for the program's
 * failure; the result says what happened.
 */
export async function runProcessGroup(options: RunProcessGroupOptions): Promise<ProcessGroupResult> {
  const startedAt = new Date();
  const label = options.label ?? "the program";
  const graceMs = Math.max(0, Math.round(options.killGraceMs ?? DEFAULT_KILL_GRACE_MS));
  const stderrTail = new TailBuffer(options.stderrTailLength ?? DEFAULT_STDERR_TAIL_LENGTH);
  const finish = (fields: Partial<ProcessGroupResult>): ProcessGroupResult => ({
    stdout: "",
    exitCode: null,
    signal: null,
    timedOut: false,
    interrupted: false,
    stderrTail: stderrTail.toString(),
    error: null,
    startedAt: startedAt.toISOString(),
    completedAt: new Date().toISOString(),
    ...fields,
  });

  if (!isDirectory(options.cwd)) return finish({ error: `the working directory ${options.cwd} does not exist` });
  if (options.signal?.aborted)
    return finish({ interrupted: true, error: `${label} was interrupted before it started` });

  const subprocess = execa(options.command, [...options.args], {
    cwd: options.cwd,
    env: { ...options.env },
    extendEnv: options.extendEnv ?? true,
    ...(options.input === undefined ? { stdin: "ignore" as const } : { input: options.input }),
    buffer: { stdout: options.captureStdout, stderr: false },
    maxBuffer: { stdout: Number.POSITIVE_INFINITY },
    stripFinalNewline: false,
    reject: false,
    timeout: toTimerDelay(options.timeoutMs),
    ...(options.signal === undefined ? {} : { cancelSignal: options.signal }),
    killDescendants: true,
    forceKillAfterDelay: graceMs,
  });
  const pid = subprocess.pid;
  if (pid !== undefined) options.onSpawn?.(pid);
  listen(subprocess.stderr, (chunk) => {
    stderrTail.append(chunk);
    options.onStderr?.(chunk);
  });
  if (!options.captureStdout) listen(subprocess.stdout, (chunk) => options.onStdout?.(chunk));

  const result = await subprocess;
  const interrupted = result.isCanceled === true;
  const timedOut = result.timedOut === true && !interrupted;
  // The leader is gone; members of its group that ignored SIGTERM are not.
  if ((interrupted || timedOut) && pid !== undefined) await stopProcessGroup(pid, graceMs);

  const signal = result.signal ?? null;
  const exitCode = result.exitCode ?? null;
  const stdout = typeof result.stdout === "string" ? result.stdout : "";
  let error: string | null = null;
  if (interrupted) error = `${label} was interrupted`;
  else if (timedOut) error = `${label} timed out after ${formatTimeLimit(options.timeoutMs)}`;
  else if (pid === undefined || (exitCode === null && signal === null)) {
    error = `${label} could not be started (${options.command}): ${causeMessage(result.cause, result.shortMessage)}`;
  } else if (signal !== null) error = `${label} was killed by ${signal}`;
  return finish({ stdout, exitCode, signal, timedOut, interrupted, error });
}

/** Waits up to `graceMs` for every process of the group to exit, then kills what is left. */
export async function stopProcessGroup(groupId: number, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (isGroupAlive(groupId) && Date.now() < deadline) await sleep(GROUP_POLL_MS);
  try {
    process.kill(-groupId, "SIGKILL");
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

function listen(stream: NodeJS.ReadableStream | null | undefined, onText: (chunk: string) => void): void {
  if (stream === null || stream === undefined) return;
  const decoder = new TextDecoder();
  stream.on("data", (chunk: Uint8Array | string) => {
    const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    if (text !== "") onText(text);
  });
  stream.on("end", () => {
    const rest = decoder.decode();
    if (rest !== "") onText(rest);
  });
}

function toTimerDelay(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return 0;
  return Math.min(MAX_TIMER_MS, Math.max(1, Math.round(timeoutMs)));
}

/** A time limit under a second in milliseconds (`300 ms`), a longer one in seconds (`30 s`). */
function formatTimeLimit(milliseconds: number): string {
  return milliseconds < 1_000 ? `${Math.round(milliseconds)} ms` : formatSeconds(milliseconds);
}

function causeMessage(cause: unknown, fallback: string | undefined): string {
  if (cause instanceof Error) return cause.message;
  return fallback ?? "unknown error";
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
