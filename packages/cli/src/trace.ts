import { writeSync } from "node:fs";

/**
 * `UWF_TRACE=1` prints each phase of a command as it ends, with the milliseconds since the process
 * started, on stderr: `uwf trace: 23.4 ms chain read`. For finding where a slow step's time goes,
 * and used by the benchmark; costs one comparison per phase when off. `UWF_TRACE=cpu` prints the CPU time
 * the process has used instead (user and system), which other processes on the machine barely move.
 */
const enabled = (process.env.UWF_TRACE ?? "") !== "" && process.env.UWF_TRACE !== "0";

const cpu = process.env.UWF_TRACE === "cpu";

export function trace(phase: string): void {
  // writeSync, not process.stderr: creating that stream would be part of what is measured.
  if (enabled) writeSync(2, `uwf trace: ${(cpu ? cpuMs() : performance.now()).toFixed(1)} ms ${phase}\n`);
}

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}
