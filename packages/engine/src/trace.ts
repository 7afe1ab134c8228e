import { writeSync } from "node:fs";

/**
 * `UWF_TRACE=1` prints each phase of a command as it ends, with the milliseconds since the process
 * started, on stderr: `uwf trace: 23.4 ms chain read`. For finding where a slow step's time goes,
 * and used by the benchmark; costs one comparison per phase when off.
 */
const enabled = (process.env.UWF_TRACE ?? "") !== "" && process.env.UWF_TRACE !== "0";

export function trace(phase: string): void {
  // writeSync, not process.stderr: creating that stream would be part of what is measured.
  if (enabled) writeSync(2, `uwf trace: ${performance.now().toFixed(1)} ms ${phase}\n`);
}
