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

/** A new launch tag: the value of LAUNCH_TAG_VARIABLE for one program and everything it starts. */
export function newLaunchTag(): string {
  return crypto.randomUUID();
}

/**
 * The processes of this user, other than this one, whose environment carries `tag` (LAUNCH_TAG_VARIABLE):
 * what a launched program started, wherever it went. Linux only (`/proc/PID/environ`); none elsewhere.
 * A zombie's environment reads empty, so the dead are left out. `since` (a start as readProcessStart gives
 * it: the launched program's own, or an earlier one) skips every process that started before it, which
 * cannot carry the tag, without reading its environment (a read that waits on a busy process's memory).
 */
export function findTaggedProcesses(tag: string, since: string | null = null): number[] {
  if (process.platform !== "linux") return [];
  const wanted = Buffer.from(`\0${LAUNCH_TAG_VARIABLE}=${tag}\0`);
  const first = wanted.subarray(1);
  const found: number[] = [];
  for (const name of listDirectory("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid || startedBefore(pid, since)) continue;
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
  since: string | null = null,
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
