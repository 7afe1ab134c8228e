import { setTimeout as sleep } from "node:timers/promises";
import { isProcessAlive, isProcessGroupAlive } from "@uwf/cas";
import type { Lease } from "@uwf/protocol";

/** Milliseconds between SIGTERM and SIGKILL, as for an agent the stepper stops itself. */
export const ORPHAN_KILL_GRACE_MS = 2_000;
const GROUP_POLL_MS = 20;

/**
 * Stops the agent a dead stepper left running: SIGTERM to the process group its lease names, then
 * SIGKILL to whatever is left after the grace period, so no second agent works in the same cwd
 * beside it. Nothing is signalled unless the group is still that agent's: its leader is the agent
 * (the pid with the recorded start), or the leader has exited but the group lives on (its id
 * cannot be given to another process while it does). A pid that now names another process means
 * the agent and its group are long gone.
 */
export async function stopOrphanedAgent(holder: Lease, graceMs = ORPHAN_KILL_GRACE_MS): Promise<void> {
  const group = holder.agentGroup;
  // A group of 0 or 1 in a damaged record would make kill() reach uwf's own group or every process.
  if (group === null || group <= 1 || !isStillTheAgentsGroup(group, holder.agentStart)) return;
  signalGroup(group, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (isProcessGroupAlive(group) && Date.now() < deadline) await sleep(GROUP_POLL_MS);
  signalGroup(group, "SIGKILL");
}

function isStillTheAgentsGroup(group: number, start: string | null): boolean {
  if (isProcessAlive(group, start)) return true;
  if (isProcessAlive(group)) return false;
  return isProcessGroupAlive(group);
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch (error) {
    // ESRCH: every process of the group has exited.
    if ((error as { code?: unknown }).code !== "ESRCH") throw error;
  }
}
