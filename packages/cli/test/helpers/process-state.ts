import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { waitFor } from "@uwf/cas/test";

/**
 * Resolves once the kernel has handed process `pid` every signal sent to it (none pending in
 * /proc/PID/status): a test that sends a signal and then checks what the process does about it
 * waits for this, not for a guessed time. Linux only, as `script` and `setpriv` are.
 */
export function waitForSignalTaken(pid: number, timeoutMs = 30_000): Promise<void> {
  return waitFor(() => !hasPendingSignal(pid), { what: `process ${pid} taking its signal`, timeoutMs, intervalMs: 5 });
}

function hasPendingSignal(pid: number): boolean {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return false; // gone: nothing is pending any more
  }
  return ["SigPnd", "ShdPnd"].some((field) => {
    const mask = new RegExp(`^${field}:\\s*([0-9a-f]+)`, "m").exec(status)?.[1] ?? "0";
    return BigInt(`0x${mask}`) !== 0n;
  });
}

/**
 * Resolves once process `pid` has its store open: the home's `refs.db`, or a socket (a PostgreSQL
 * store). A command such as `uwf wait` reads the store the moment it opens it, so a test that needs
 * it to be waiting before anything changes waits for this.
 */
export function waitForStoreOpen(pid: number, timeoutMs = 30_000): Promise<void> {
  return waitFor(() => openFiles(pid).some((file) => file.endsWith("/refs.db") || file.startsWith("socket:")), {
    what: `process ${pid} opening its store`,
    timeoutMs,
    intervalMs: 10,
  });
}

function openFiles(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/${pid}/fd/${fd}`)];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}
