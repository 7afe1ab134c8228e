/**
 * Kills this process where `UWF_CRASH_AT` names the point (`after-fan-out-step`, `before-settle`,
 * `after-step-nodes`): how the end-to-end tests put a SIGKILL in a window too narrow to hit from outside
 * (between a fan-out step and its branches, between a branch's end and its parent's join, between a step's
 * nodes and its head). Unset, it costs one environment read.
 */
export function crashPoint(name: "after-fan-out-step" | "before-settle" | "after-step-nodes"): void {
  if (process.env.UWF_CRASH_AT === name) process.kill(process.pid, "SIGKILL");
}
