import { readdirSync, readFileSync } from "node:fs";

/** What /proc says of a process: its state letter, its process group and when it started. */
interface ProcessStat {
  state: string;
  group: number;
  start: string;
}

/** Errors reading `/proc/PID/stat` that mean "cannot tell": hidden by `hidepid`, or no /proc mounted. */
const UNREADABLE_STAT_CODES = new Set(["ENOENT", "ESRCH", "EACCES", "EPERM"]);

/**
 * When process `pid` of this machine started, as an opaque string to compare: on Linux field 22 of
 * `/proc/PID/stat` (clock ticks since boot), which tells a process from a later one given the same
 * pid. Null where it cannot be read (another system, no /proc, no such process).
 */
export function readProcessStart(pid: number): string | null {
  if (!isPid(pid)) return null;
  return readProcessStat(pid)?.start ?? null;
}

/**
 * Whether process `pid` of this machine still runs and is the process that started at `start` (from
 * `readProcessStart`; null: whichever has the pid). Gone means: no process has the pid; it is a
 * zombie (dead, not yet reaped by its parent); or, where the start can be read and `start` is known,
 * the pid now names a process that started at another time. Elsewhere signal 0 alone decides, and a
 * process of another user (EPERM) counts as alive.
 */
export function isProcessAlive(pid: number, start: string | null = null): boolean {
  if (!isPid(pid) || !answersSignalZero(pid)) return false;
  const stat = readProcessStat(pid);
  if (stat === null) return true;
  if (stat.state === "Z" || stat.state === "X") return false;
  return start === null || stat.start === start;
}

/**
 * Whether process group `group` of this machine still has a running member. Signal 0 to the group
 * decides, except that on Linux a group whose members are all zombies (killed, not yet reaped) is
 * gone: /proc is searched for one that is not.
 */
export function isProcessGroupAlive(group: number): boolean {
  if (!isPid(group) || !answersSignalZero(-group)) return false;
  if (process.platform !== "linux") return true;
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch (error) {
    if (UNREADABLE_STAT_CODES.has(String((error as { code?: unknown }).code))) return true;
    throw error;
  }
  // None found running (each may exit as it is read) means none is left but zombies.
  return pids.some((pid) => {
    const stat = readProcessStat(Number(pid));
    return stat !== null && stat.group === group && stat.state !== "Z" && stat.state !== "X";
  });
}

/** Pid 0 and negative numbers address process groups, not one process: never a process here. */
function isPid(pid: number): boolean {
  return Number.isSafeInteger(pid) && pid > 0;
}

function answersSignalZero(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ESRCH") return false;
    // EPERM: it exists, under another user.
    if (code === "EPERM") return true;
    throw error;
  }
}

function readProcessStat(pid: number): ProcessStat | null {
  if (process.platform !== "linux") return null;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    if (UNREADABLE_STAT_CODES.has(String((error as { code?: unknown }).code))) return null;
    throw error;
  }
  // "PID (COMMAND) STATE PPID PGRP ...": the command may hold spaces and parentheses, so fields are
  // counted from the last ")"; STATE is field 3, PGRP field 5 and the start time field 22.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const start = fields[19];
  return state === undefined || start === undefined ? null : { state, group: Number(fields[2]), start };
}
