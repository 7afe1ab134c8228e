import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { isProcessAlive, readProcessStart } from "@uwf/cas";

/**
 * The variable uwf tags every program it launches with (an agent, an MCP server): a random value per
 * launch, which every process the program starts inherits, those that leave its process group and
 * session (`setsid`, a double fork) and close its output included, unless they clear their environment.
 */
export const LAUNCH_TAG_VARIABLE = "UWF_LAUNCH";

const POLL_MS = 20;

/** A launched program (or an ancestor of it), whose descendants all started after it: its pid and start. */
export interface LaunchOrigin {
  pid: number;
  /** As readProcessStart gives it; null when not known. */
  start: string | null;
}

/** The launch origin of process `pid`, read now (call it right after the spawn). */
export function launchOriginOf(pid: number): LaunchOrigin {
  return { pid, start: readProcessStart(pid) };
}

/** A new launch tag: the value of LAUNCH_TAG_VARIABLE for one program and everything it starts. */
export function newLaunchTag(): string {
  return crypto.randomUUID();
}

/**
 * The processes of this user, other than this one, whose environment carries `tag` (LAUNCH_TAG_VARIABLE):
 * what a launched program started, wherever it went. Linux only (`/proc/PID/environ`); none elsewhere.
 * A zombie's environment reads empty, so the dead are left out. `since`, the launched program (or an
 * ancestor of it: this process), skips the processes started before it, which cannot carry the tag: by pid
 * alone while no pid was handed out twice since (the kernel's last pid, in /proc/loadavg, is still above
 * the program's), else by their start (/proc/PID/stat), so a step costs a look at the processes started
 * since its agent, not at every process of the machine.
 */
export function findTaggedProcesses(tag: string, since: LaunchOrigin | null = null): number[] {
  if (process.platform !== "linux") return [];
  const wanted = Buffer.from(`\0${LAUNCH_TAG_VARIABLE}=${tag}\0`);
  const first = wanted.subarray(1);
  const found: number[] = [];
  const noWrap = since !== null && lastPid() >= since.pid;
  for (const name of listDirectory("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid || (noWrap && pid <= (since as LaunchOrigin).pid)) continue;
    if (!noWrap && startedBefore(pid, since?.start ?? null)) continue;
    const environment = readEnvironment(pid);
    if (environment === null) continue;
    if (environment.includes(wanted) || startsWith(environment, first)) found.push(pid);
  }
  return found;
}

/**
 * Stops every process still carrying `tag` once the program launched with it has ended: SIGTERM, then
 * SIGKILL to those left after `graceMs`. So a daemon an agent or an MCP server started (`setsid`, double
 * forked, its output elsewhere) does not outlive the step. Returns the pids it signalled.
 */
export async function stopTaggedProcesses(
  tag: string,
  graceMs: number,
  since: LaunchOrigin | null = null,
): Promise<number[]> {
  const tagged = findTaggedProcesses(tag, since);
  if (tagged.length === 0) return [];
  for (const pid of tagged) signal(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && tagged.some((pid) => isProcessAlive(pid))) await sleep(POLL_MS);
  // Those still there, and what they started meanwhile.
  for (const pid of new Set([...tagged.filter((pid) => isProcessAlive(pid)), ...findTaggedProcesses(tag, since)])) {
    signal(pid, "SIGKILL");
  }
  return tagged;
}

/** Whether the process started before `since` (clock ticks since boot, as text); false when either is not known. */
function startedBefore(pid: number, since: string | null): boolean {
  if (since === null) return false;
  const start = readProcessStart(pid);
  return start !== null && BigInt(start) < BigInt(since);
}

/** The pid the kernel handed out last (/proc/loadavg); 0 when not known, which makes every pid count. */
function lastPid(): number {
  try {
    return Number(readFileSync("/proc/loadavg", "utf8").trim().split(" ").at(-1)) || 0;
  } catch {
    return 0;
  }
}

function startsWith(buffer: Buffer, prefix: Buffer): boolean {
  return buffer.length >= prefix.length && buffer.subarray(0, prefix.length).equals(prefix);
}

function readEnvironment(pid: number): Buffer | null {
  try {
    return readFileSync(`/proc/${pid}/environ`);
  } catch {
    // Gone, or another user's.
    return null;
  }
}

function listDirectory(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}
