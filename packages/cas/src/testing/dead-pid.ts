/** The pid of a process that has ended: one this process started and waited for. */
export function deadPid(): number {
  return Bun.spawnSync(["true"]).pid;
}
